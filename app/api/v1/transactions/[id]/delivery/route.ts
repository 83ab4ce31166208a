import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { updateDelivery } from "@/lib/services/transactions/update-delivery";
import { pspRefundsFor } from "@/lib/services/transactions/transaction-view";
import { transactionView } from "@/lib/http/dialect-views";

export const PUT = withApiKey(async (_req, ctx) => {
  const t = await updateDelivery(ctx, ctx.params.id, ctx.body);
  return ok(transactionView(ctx, t, await pspRefundsFor(t)));
});
