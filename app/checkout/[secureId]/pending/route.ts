import { z } from "zod";
import { withPublic } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { isSecureId, pendingOfAttempt } from "@/lib/services/checkouts/checkout-lookup";
import { readPayerRequest } from "../payer-request";

const PendingInput = z.object({ attempt: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, "must be 22 to 64 letters, digits, - or _") });

// The payment link's page asks, with its browser's attempt key, whether this browser already made a
// PIX or boleto it can continue (lib/services/checkouts/checkout-lookup.ts, pendingOfAttempt).
export const POST = withPublic(async (req, ctx) => {
  const { body, payer } = await readPayerRequest(req, ctx);
  const { attempt } = parseWith(PendingInput, body, "body");
  const id = ctx.params.secureId;
  return ok(isSecureId(id) ? await pendingOfAttempt(id, attempt, payer.now) : null);
});
