import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { transactionView } from "@/lib/http/dialect-views";

export const POST = withApiKey(
  async (_req, ctx) => ok(transactionView(ctx, await refundThroughProcessor(ctx, ctx.params.id, (ctx.body ?? {}) as { amount?: number }, ctx.tx))),
  { idempotent: true },
);
