/**
 * Resources as each dialect shows them. /v1 shows a transaction the same way everywhere (creation,
 * reads, lists, moves, postbacks), as the family's clients expect it: the Transaction resource plus
 * what /api/v1 shows only at creation (fees, postbackUrl, installments, card, boleto), and the
 * family's fee, items, ip, externalRef and updatedAt. /api/v1 keeps the contract's resource.
 */
import { boletoUrlOf, cardView, transactionResource, type TransactionRow } from "@/lib/services/transaction-view";
import type { Dialect } from "./dialect";

export function v1TransactionResource(t: TransactionRow) {
  return {
    ...transactionResource(t),
    fees: t.feeEstimated,
    fee: { netAmount: t.amount - t.feeEstimated, fixedAmount: t.feeFixed, estimatedFee: t.feeEstimated },
    postbackUrl: t.postbackUrl,
    externalRef: t.externalRef,
    ip: t.ip,
    items: t.items,
    ...(t.paymentMethod === "credit_card" ? { installments: t.installments, card: cardView(t) } : {}),
    ...(t.paymentMethod === "boleto"
      ? { boleto: { url: boletoUrlOf(t.secureId), barcode: t.boletoBarcode, digitableLine: t.boletoDigitableLine, dueDate: t.boletoDueDate } }
      : {}),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The transaction as the request's dialect shows it (read, list, move, refund, delivery). */
export function transactionView(ctx: { dialect?: Dialect }, t: TransactionRow) {
  return ctx.dialect === "v1" ? v1TransactionResource(t) : transactionResource(t);
}
