/** A transaction or payment link as the request's dialect shows it (lib/core/transaction-resource.ts has both transaction shapes). */
import { metadataAsSent, transactionResource, v1TransactionResource } from "@/lib/core/transaction-resource";
import type { PspRefundRow, TransactionRow } from "@/lib/core/rows";
import { checkoutResource, type CheckoutWithStatus } from "@/lib/services/checkouts/checkout-view";
import type { Dialect } from "./dialect";

export { v1TransactionResource };

/**
 * Read, list, move, refund, delivery: the resource in the request's dialect. `pspRefunds`: the rows
 * of a paid PIX received through the merchant's PSP (pspRefundsOf in lib/services/transactions/
 * transaction-view.ts), shown as `refunds` and `pendingRefundAmount`; any other transaction has none.
 */
export function transactionView(ctx: { dialect?: Dialect }, t: TransactionRow, pspRefunds?: readonly PspRefundRow[]) {
  return ctx.dialect === "v1" ? v1TransactionResource(t, pspRefunds) : transactionResource(t, pspRefunds);
}

/** A payment link: /v1 shows its metadata as it was sent (an object as that object), /api/v1 as the stored text. */
export function checkoutView(ctx: { dialect?: Dialect }, c: CheckoutWithStatus) {
  const resource = checkoutResource(c);
  return ctx.dialect === "v1" ? { ...resource, metadata: metadataAsSent(c.row) } : resource;
}
