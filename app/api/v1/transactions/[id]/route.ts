import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { transactionView } from "@/lib/http/dialect-views";

export const GET = withApiKey(async (_req, ctx) => ok(transactionView(ctx, await getTransaction(ctx, ctx.params.id))));
