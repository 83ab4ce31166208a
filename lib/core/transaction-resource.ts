/**
 * The Transaction resource as each dialect shows it. /api/v1 shows the contract's resource; /v1 shows
 * a transaction the same way everywhere (creation, reads, lists, moves, postbacks), as the family's
 * clients expect it: the resource plus what /api/v1 shows only at creation (fees, postbackUrl,
 * installments, card, boleto), and the family's fee, items, ip, externalRef and updatedAt.
 * In the kernel: the services, the HTTP kit and the webhook payloads all map rows with it.
 */
import type { TransactionRow } from "@/lib/core/rows";
import { cardView } from "@/lib/core/card-view";
import { boletoUrlOf, secureUrlOf } from "@/lib/core/public-urls";

/** The spec's Transaction resource, as the read and list endpoints return it. */
export function transactionResource(t: TransactionRow) {
  const resource = {
    id: t.id,
    status: t.status,
    amount: t.amount,
    companyId: t.companyId,
    installments: t.installments,
    paidAmount: t.paidAmount,
    refundedAmount: t.refundedAmount,
    paymentMethod: t.paymentMethod,
    metadata: t.metadata,
    acquirerType: t.acquirerType,
    secureId: t.secureId,
    secureUrl: secureUrlOf(t.secureId),
    externalId: t.externalRef,
    customer: {
      name: t.customer.name,
      email: t.customer.email,
      phone: t.customer.phone,
      externalRef: t.customer.externalRef,
      document: { type: t.customer.document.type, number: t.customer.document.number },
    },
    shipping: t.shipping
      ? { fee: t.shipping.fee, address: t.shipping.address, deliveryStatus: t.deliveryStatus, trackingCode: t.trackingCode }
      : null,
    traceable: t.traceable,
    ...(t.paymentMethod === "pix"
      ? { pix: { qrcode: t.pixQrcode ?? "", expirationDate: t.expiresAt ? t.expiresAt.toISOString() : null, end2end: t.pixEnd2end } }
      : {}),
    ...(t.refusedReason ? { refusedReason: t.refusedReason } : {}),
    paidAt: t.paidAt ? t.paidAt.toISOString() : null,
    createdAt: t.createdAt.toISOString(),
  };
  return resource;
}
export type TransactionResource = ReturnType<typeof transactionResource>;


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
