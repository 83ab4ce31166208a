import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { refundThroughProcessor } from "@/lib/processors/refunds";
import { transactionResource } from "@/lib/services/transaction-view";

export const POST = withApiKey(
  async (_req, ctx) => ok(transactionResource(await refundThroughProcessor(ctx, ctx.params.id, (ctx.body ?? {}) as { amount?: number }, ctx.tx))),
  { idempotent: true },
);
