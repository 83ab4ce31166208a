import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { askPspForRefund } from "@/lib/services/psp/api-pix-refunds";
import { pspRefundsFor } from "@/lib/services/transactions/transaction-view";
import { transactionView } from "@/lib/http/dialect-views";

export const POST = withApiKey(
  async (_req, ctx) => {
    const { transaction, pspRefund } = await refundThroughProcessor(ctx, ctx.params.id, (ctx.body ?? {}) as { amount?: number }, ctx.tx);
    // A devolução at the merchant's PSP is asked once the refund and its hold have committed; the
    // answer is then the transaction as the PSP's reply left it, with its refunds at the PSP (or the
    // 422 of a refusal).
    if (pspRefund) {
      ctx.afterCommit(async () => {
        const { transaction: after } = await askPspForRefund(ctx, pspRefund);
        return ok(transactionView(ctx, after, await pspRefundsFor(after)));
      });
    }
    return ok(transactionView(ctx, transaction, await pspRefundsFor(transaction, ctx.tx)));
  },
  { idempotent: true },
);
