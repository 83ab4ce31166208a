import { and, eq, sql } from "drizzle-orm";
import { getDb, type Db, type Queryable } from "@/lib/db/client";
import { preparedOn } from "@/lib/db/prepared";
import { transactions } from "@/lib/db/schema";
import { idOrNotFound } from "@/lib/core/ids";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { ownedRow } from "../owned-row";
import type { TransactionRow } from "./transaction-view";

// The API's read of one transaction, the hottest read there is: prepared once per database handle.
const prepareRead = (db: Db) =>
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, sql.placeholder("id")), eq(transactions.companyId, sql.placeholder("companyId"))))
    .limit(1)
    .prepare("read_transaction");

/**
 * A transaction of the context's account; another account's id is indistinguishable from a missing one.
 * `forUpdate` locks the row for the rest of the caller's transaction (refunds start with it).
 */
export async function getTransaction(
  ctx: Pick<ServiceContext, "account">,
  rawId: string | number,
  db: Queryable = getDb(),
  opts: { forUpdate?: boolean } = {},
): Promise<TransactionRow> {
  if (opts.forUpdate || db !== getDb()) return ownedRow(db, transactions, "Transaction", ctx.account.id, rawId, opts);
  const id = idOrNotFound(rawId, "Transaction");
  const [row] = await preparedOn(db as Db, "read_transaction", prepareRead).execute({ id, companyId: ctx.account.id });
  if (!row) throw notFound("Transaction");
  return row;
}
