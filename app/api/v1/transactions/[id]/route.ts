import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { pspRefundsFor } from "@/lib/services/transactions/transaction-view";
import { transactionView } from "@/lib/http/dialect-views";

export const GET = withApiKey(async (_req, ctx) => {
  const t = await getTransaction(ctx, ctx.params.id);
  // Only a paid PIX received through the merchant's PSP reads its refunds there (one more query).
  return ok(transactionView(ctx, t, await pspRefundsFor(t)));
});
