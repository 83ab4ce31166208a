import { withPublic } from "@/lib/http/handler";
import { json } from "@/lib/http/envelope";
import { errorResponse } from "@/lib/http/errors";
import { getCheckoutStatus } from "@/lib/services/checkouts/checkout-page";

// Polled every few seconds by the payer's page while they pay in their bank app.
export const GET = withPublic(async (_req, ctx) => {
  const status = await getCheckoutStatus(ctx.params.secureId, ctx.now);
  if (!status) return errorResponse("not_found", "Checkout not found.");
  return json({ success: true, status: 200, data: status }, 200, { "cache-control": "no-store" });
});
