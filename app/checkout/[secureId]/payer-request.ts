import { isIP } from "node:net";
import { getEnv } from "@/lib/env";
import type { PublicContext } from "@/lib/http/handler";
import { readJson } from "@/lib/http/body";
import { clientAddress } from "@/lib/http/client-address";
import { limitCheckoutRequest } from "@/lib/http/public-limits";
import { ServiceError } from "@/lib/services/errors";
import type { PayerRequest } from "@/lib/services/checkouts/pay-checkout";

/**
 * The checkout page's own POSTs (pay, simulate) are same-origin JSON: a cross-site form cannot send
 * JSON without a CORS preflight, which these routes never answer, and a browser's Origin or
 * Sec-Fetch-Site naming another site is refused outright.
 */
export async function readPayerRequest(req: Request, ctx: PublicContext): Promise<{ body: unknown; payer: PayerRequest }> {
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const allowed = new Set([new URL(req.url).origin, new URL(getEnv().checkoutUrl).origin]);
  if ((site && site !== "same-origin" && site !== "none") || (origin && !allowed.has(origin))) {
    throw new ServiceError("forbidden", "Checkout requests must come from the checkout page.");
  }
  if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new ServiceError("validation_error", "Send the payment as application/json.");
  }
  await limitCheckoutRequest(req);
  const { value } = await readJson(req);
  return { body: value, payer: { ip: payerIp(req), requestId: ctx.requestId, now: ctx.now } };
}

/** The payer's address (the peer, or what a trusted proxy reports: lib/http/client-address.ts), else loopback. */
export function payerIp(req: Request): string {
  const address = clientAddress(req.headers);
  return isIP(address) ? address : "127.0.0.1";
}
