import type { TransactionRow } from "@/lib/core/rows";
import { getEnv } from "@/lib/env";

export type { TransactionRow };

export function secureUrlOf(secureId: string): string {
  return `${getEnv().checkoutUrl}/checkout/${secureId}`;
}

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

/** Public URL of a boleto's PDF: on the checkout host, since the payer opens it without credentials. */
export function boletoUrlOf(secureId: string): string {
  return `${getEnv().checkoutUrl}/checkout/${secureId}/boleto.pdf`;
}

/** The card as every response shows it: never more than brand, holder, first 6, last 4 and expiry. */
export function cardView(t: TransactionRow) {
  return {
    brand: t.cardBrand,
    holderName: t.cardHolderName,
    firstDigits: t.cardFirstDigits,
    lastDigits: t.cardLastDigits,
    expirationMonth: t.cardExpirationMonth,
    expirationYear: t.cardExpirationYear,
  };
}
