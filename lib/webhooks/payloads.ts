import type { WebhookEventKind } from "@/lib/domain/status";
import { cashOutSourceOf } from "@/lib/domain/ledger";
import type { CashOutRow } from "@/lib/core/rows";
import { cardView } from "@/lib/core/card-view";
import { boletoUrlOf } from "@/lib/core/public-urls";
import type { PspRefundRow, TransactionRow } from "@/lib/core/rows";
import type { Dialect } from "@/lib/core/dialect";
import { pspRefundFields, pspRefundView, reportedFee, transactionResource, v1TransactionResource } from "@/lib/core/transaction-resource";

/**
 * What the outbox stores for a transaction event, in the dialect the transaction was created with:
 * the contract's `data` for /api/v1, the family's full transaction for /v1. `pspRefunds`: the
 * transaction's refunds at the merchant's PSP as written in the same database transaction (a paid PIX
 * received through API Pix), shown as `refunds` and `pendingRefundAmount`.
 */
export function transactionEventPayload(
  t: TransactionRow,
  kind: WebhookEventKind,
  pspRefunds?: readonly PspRefundRow[],
): { payload: Record<string, unknown>; dialect: Dialect } {
  return t.dialect === "v1"
    ? { payload: v1TransactionEventData(t, kind, pspRefunds), dialect: "v1" }
    : { payload: transactionEventData(t, kind, pspRefunds), dialect: "api" };
}

/**
 * `data` of a /v1 transaction notification: the transaction as /v1 returns it, with the family's
 * status names: a card approval is `paid` (the contract's event kind `approved` is /api/v1's).
 */
export function v1TransactionEventData(t: TransactionRow, kind: WebhookEventKind, pspRefunds?: readonly PspRefundRow[]) {
  return { ...v1TransactionResource(t, pspRefunds), status: kind === "approved" ? "paid" : kind };
}

/**
 * `data` of a transaction notification: a snapshot taken when the change is written, so a later
 * change cannot alter what an earlier event says. The envelope (`id`, `type`, `url`) is added at
 * delivery from the outbox row.
 */
export function transactionEventData(t: TransactionRow, kind: WebhookEventKind, pspRefunds?: readonly PspRefundRow[]) {
  return {
    id: t.id,
    status: kind,
    amount: t.amount,
    paidAmount: t.paidAmount,
    refundedAmount: t.refundedAmount,
    ...pspRefundFields(t, pspRefunds),
    paidAt: t.paidAt ? t.paidAt.toISOString() : null,
    paymentMethod: t.paymentMethod,
    installments: t.installments,
    externalRef: t.externalRef,
    secureId: t.secureId,
    fee: reportedFee(t),
    ...(t.paymentMethod === "pix" ? { pix: { qrcode: t.pixQrcode, end2end: t.pixEnd2end } } : {}),
    ...(t.paymentMethod === "boleto"
      ? { boleto: { url: boletoUrlOf(t.secureId), barcode: t.boletoBarcode, digitableLine: t.boletoDigitableLine } }
      : {}),
    ...(t.paymentMethod === "credit_card"
      ? {
          card: cardView(t),
          ...(t.refusedReason ? { refusedReason: t.refusedReason } : {}),
        }
      : {}),
    customer: {
      name: t.customer.name,
      email: t.customer.email,
      document: { type: t.customer.document.type, number: t.customer.document.number },
    },
    metadata: t.metadata,
    createdAt: t.createdAt.toISOString(),
  };
}

/**
 * The body POSTed to the receiver: the contract's notification body, or for an event of the /v1
 * dialect the family's `{ id, type, objectId, url, data }` (objectId: the transaction's id, as text).
 */
export function notificationBody(event: {
  id: number;
  type: string;
  url: string | null;
  payload: Record<string, unknown>;
  dialect?: string;
}) {
  if (event.dialect === "v1") {
    return { id: event.id, type: event.type, objectId: String(event.payload.id), url: event.url, data: event.payload };
  }
  return { id: event.id, type: event.type, url: event.url, data: event.payload };
}

/**
 * `data` of a `refund` notification (a refund asked of the merchant's PSP reached its end: `done`, the
 * PSP returned the money; `failed`, it did not): the refund, its transaction's id, and the transaction
 * as the dialect's read endpoint shows it after the change (its status is the transaction's own, never
 * an event kind). `data.id` is the refund's id; `data.transactionId` and `data.transaction.id` name the
 * transaction.
 */
export function refundEventPayload(
  t: TransactionRow,
  refund: PspRefundRow,
  pspRefunds: readonly PspRefundRow[],
): { payload: Record<string, unknown>; dialect: Dialect } {
  const transaction = t.dialect === "v1" ? v1TransactionResource(t, pspRefunds) : transactionResource(t, pspRefunds);
  return { payload: { ...pspRefundView(refund), transactionId: t.id, transaction }, dialect: t.dialect === "v1" ? "v1" : "api" };
}

/** `data` of a cash-out notification, and the cash-out as the API returns it. */
export function cashOutEventData(c: CashOutRow) {
  return {
    id: c.id,
    status: c.status,
    amount: c.amount,
    fee: c.fee,
    pixKey: c.pixKey,
    pixKeyType: c.pixKeyType,
    /** Which money it sends: arara (available, Arara's payouts) or psp (availableAtPsp, from the merchant's PSP account). */
    source: cashOutSourceOf(c),
    end2endId: c.end2endId,
    failReason: c.failReason,
    description: c.description,
    externalRef: c.externalRef,
    createdAt: c.createdAt.toISOString(),
    /** Set when the transfer completed; null while in flight and for a failed one. */
    completedAt: c.completedAt ? c.completedAt.toISOString() : null,
  };
}
