import type { TransactionRow } from "@/lib/core/rows";
import { cardView } from "@/lib/core/card-view";
import { boletoUrlOf, secureUrlOf } from "@/lib/core/public-urls";

export type { TransactionRow };

export { boletoUrlOf, cardView, secureUrlOf };

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

