import { asc, eq, inArray } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { pspRefunds } from "@/lib/db/schema";
import type { PspRefundRow, TransactionRow } from "@/lib/core/rows";
import { cardView } from "@/lib/core/card-view";
import { needsPspRefunds } from "@/lib/core/transaction-resource";
import { boletoUrlOf, secureUrlOf } from "@/lib/core/public-urls";

export type { PspRefundRow, TransactionRow };

export { boletoUrlOf, cardView, secureUrlOf };
export {
  boletoView,
  needsPspRefunds,
  pspRefundView,
  refundsAtPsp,
  reportedFee,
  transactionResource,
  v1TransactionResource,
  type PspRefundView,
  type TransactionResource,
} from "@/lib/core/transaction-resource";

/**
 * The refunds asked of the merchant's PSP of the rows that have any to show (paid PIX received through
 * API Pix: needsPspRefunds), by transaction id, for the transaction resource's `refunds` and
 * `pendingRefundAmount`. One query for all of them (psp_refunds_tx_idx), and none at all when no row
 * needs it: reading a sandbox charge, a boleto or a card, or a page of them, costs what it did.
 * `db`: the caller's transaction when the rows were just written in it.
 */
export async function pspRefundsOf(rows: readonly TransactionRow[], db: Queryable = getDb()): Promise<Map<number, PspRefundRow[]>> {
  const byTransaction = new Map<number, PspRefundRow[]>();
  const ids = rows.filter(needsPspRefunds).map((t) => t.id);
  if (ids.length === 0) return byTransaction;
  for (const id of ids) byTransaction.set(id, []);
  const found = await db
    .select()
    .from(pspRefunds)
    .where(ids.length === 1 ? eq(pspRefunds.transactionId, ids[0]) : inArray(pspRefunds.transactionId, ids))
    .orderBy(asc(pspRefunds.id));
  for (const r of found) byTransaction.get(r.transactionId)?.push(r);
  return byTransaction;
}

/** The psp_refunds rows to show with one transaction; undefined, with no query, when it needs none. */
export async function pspRefundsFor(t: TransactionRow, db: Queryable = getDb()): Promise<PspRefundRow[] | undefined> {
  return needsPspRefunds(t) ? (await pspRefundsOf([t], db)).get(t.id) : undefined;
}
