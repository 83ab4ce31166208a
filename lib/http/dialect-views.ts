/** The transaction as the request's dialect shows it (lib/core/transaction-resource.ts has both shapes). */
import { transactionResource, v1TransactionResource } from "@/lib/core/transaction-resource";
import type { TransactionRow } from "@/lib/core/rows";
import type { Dialect } from "./dialect";

export { v1TransactionResource };

/** Read, list, move, refund, delivery: the resource in the request's dialect. */
export function transactionView(ctx: { dialect?: Dialect }, t: TransactionRow) {
  return ctx.dialect === "v1" ? v1TransactionResource(t) : transactionResource(t);
}
