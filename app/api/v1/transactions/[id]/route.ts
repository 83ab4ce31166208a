import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { transactionResource } from "@/lib/services/transactions/transaction-view";

export const GET = withApiKey(async (_req, ctx) => ok(transactionResource(await getTransaction(ctx, ctx.params.id))));
