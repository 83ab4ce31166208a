import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { ListTransactionsQuery, listTransactions } from "@/lib/services/transactions/list-transactions";
import { beforeCreateTransaction, createTransaction, takesIdBeforeItsWrite, type PreparedPix } from "@/lib/services/transactions/create-transaction";
import { pspRefundsOf } from "@/lib/services/transactions/transaction-view";
import { transactionView } from "@/lib/http/dialect-views";

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(ListTransactionsQuery, queryObject(ctx.url, ListTransactionsQuery), "query");
  const { rows, pagination } = await listTransactions(ctx, query);
  // One query for the page's paid PIX received through the merchant's PSP, none for a page without any.
  const refunds = await pspRefundsOf(rows);
  return ok({ data: rows.map((t) => transactionView(ctx, t, refunds.get(t.id))), pagination });
});

export const POST = withApiKey<PreparedPix | null | undefined>(
  async (_req, ctx) => {
    const { transaction, response } = await createTransaction(ctx, ctx.body, { preparedPix: ctx.prepared }, ctx.tx);
    return ok(ctx.dialect === "v1" ? transactionView(ctx, transaction) : response, 201, "Transaction created successfully.");
  },
  {
    idempotent: true,
    // A PIX charge's id is taken by the authenticating statement (lib/http/authenticate.ts).
    reservesId: (body) => (takesIdBeforeItsWrite(body) ? "transactions" : null),
    // Before the Idempotency-Key's transaction opens: the webhook URL's DNS lookup, and a PIX at the
    // merchant's PSP.
    prepare: (ctx) => beforeCreateTransaction(ctx, ctx.body),
  },
);
