import { getDb, type Queryable } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { ownedRow } from "../owned-row";
import type { TransactionRow } from "./transaction-view";

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
  return ownedRow(db, transactions, "Transaction", ctx.account.id, rawId, opts);
}
