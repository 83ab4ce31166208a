import { withPublic } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { payCheckout } from "@/lib/services/checkouts/pay-checkout";
import { readPayerRequest } from "../payer-request";

// Receives the payer's choice and, for cards, only the token made by /api/v1/card-token.
export const POST = withPublic(async (req, ctx) => {
  const { body, payer } = await readPayerRequest(req, ctx);
  return ok(await payCheckout(ctx.params.secureId, body, payer), 201);
});
