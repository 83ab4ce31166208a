import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { updateDelivery } from "@/lib/services/update-delivery";
import { transactionResource } from "@/lib/services/transaction-view";

export const PUT = withApiKey(async (_req, ctx) => ok(transactionResource(await updateDelivery(ctx, ctx.params.id, ctx.body))));
