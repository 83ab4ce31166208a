import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { transactionResource } from "@/lib/services/transactions/transaction-view";

export const POST = withApiKey(
  async (_req, ctx) => ok(transactionResource(await refundTransaction(ctx, ctx.params.id, (ctx.body ?? {}) as { amount?: number }, ctx.tx))),
  { idempotent: true },
);
