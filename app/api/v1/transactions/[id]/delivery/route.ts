import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { updateDelivery } from "@/lib/services/transactions/update-delivery";
import { transactionView } from "@/lib/http/dialect-views";

export const PUT = withApiKey(async (_req, ctx) => ok(transactionView(ctx, await updateDelivery(ctx, ctx.params.id, ctx.body))));
