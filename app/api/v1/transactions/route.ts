import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { ListTransactionsQuery, listTransactions } from "@/lib/services/list-transactions";
import { transactionResource } from "@/lib/services/transaction-view";

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(ListTransactionsQuery, queryObject(ctx.url), "query");
  const { rows, pagination } = await listTransactions(ctx, query);
  return ok({ data: rows.map(transactionResource), pagination });
});
