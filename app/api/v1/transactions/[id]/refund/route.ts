import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { askPspForRefund } from "@/lib/services/psp/api-pix-refunds";
import { transactionView } from "@/lib/http/dialect-views";

export const POST = withApiKey(
  async (_req, ctx) => {
    const { transaction, pspRefund } = await refundThroughProcessor(ctx, ctx.params.id, (ctx.body ?? {}) as { amount?: number }, ctx.tx);
    // A devolução at the merchant's PSP is asked once the refund and its hold have committed; the
    // answer is then the transaction as the PSP's reply left it (or the 422 of a refusal).
    if (pspRefund) ctx.afterCommit(async () => ok(transactionView(ctx, (await askPspForRefund(ctx, pspRefund)).transaction)));
    return ok(transactionView(ctx, transaction));
  },
  { idempotent: true },
);
