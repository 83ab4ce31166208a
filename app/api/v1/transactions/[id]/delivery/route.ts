import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { updateDelivery } from "@/lib/services/transactions/update-delivery";
import { transactionResource } from "@/lib/services/transactions/transaction-view";

export const PUT = withApiKey(async (_req, ctx) => ok(transactionResource(await updateDelivery(ctx, ctx.params.id, ctx.body))));
