import { withPublic } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { simulateCheckoutPayment } from "@/lib/services/checkouts/simulate-checkout-payment";
import { readPayerRequest } from "../payer-request";

// Sandbox only: pays a test PIX or clears a test boleto, as the sandbox PSP would.
export const POST = withPublic(async (req, ctx) => {
  const { payer } = await readPayerRequest(req, ctx);
  return ok(await simulateCheckoutPayment(ctx.params.secureId, payer));
});
