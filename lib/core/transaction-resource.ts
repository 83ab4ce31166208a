/**
 * The Transaction resource as each dialect shows it. /api/v1 shows the contract's resource; /v1 shows
 * a transaction the same way everywhere (creation, reads, lists, moves, postbacks), as the family's
 * clients expect it: the resource plus what /api/v1 shows only at creation (fees, postbackUrl,
 * installments, card, boleto), and the family's fee, items, ip, externalRef and updatedAt, with the
 * family's field shapes (metadata as sent, pix.expirationDate a day, refusedReason an object, the
 * card's expiry as integers, boleto.expirationDate).
 * In the kernel: the services, the HTTP kit and the webhook payloads all map rows with it.
 */
import type { PspRefundRow, TransactionRow } from "@/lib/core/rows";
import { PSP_MOTIVO_MAX, untrustedLine } from "@/lib/core/untrusted-text";
import { v1CardView } from "@/lib/core/card-view";
import { boletoUrlOf, secureUrlOf } from "@/lib/core/public-urls";
import { v1RefusedReason } from "@/lib/core/refused-reason";

/** The processor of a PIX received through the merchant's own PSP (lib/processors/api-pix names it from here). */
export const API_PIX_ACQUIRER = "api-pix";

/** A refund at the merchant's PSP: requested (recorded, the PSP not answered yet), processing (EM_PROCESSAMENTO), done (DEVOLVIDO, booked), failed. */
export const PSP_REFUND_STATUSES = ["requested", "processing", "done", "failed"] as const;
export type PspRefundStatus = (typeof PSP_REFUND_STATUSES)[number];
/** The refunds still open at the PSP: their amounts are held (reserved) and count against what may be refunded. */
export const OPEN_PSP_REFUND_STATUSES = ["requested", "processing"] as const satisfies readonly PspRefundStatus[];

/** What a failed refund says when the PSP gave no reason. */
export const PSP_REFUND_FAILED_DEFAULT_REASON = "O PSP não realizou a devolução.";

/**
 * A PIX received through the merchant's own PSP (API Pix): its refunds are devoluções asked of that
 * PSP and answered later, so its resource shows them (`refunds`, `pendingRefundAmount`).
 */
export function refundsAtPsp(t: Pick<TransactionRow, "paymentMethod" | "acquirerType">): boolean {
  return t.paymentMethod === "pix" && t.acquirerType === API_PIX_ACQUIRER;
}

/**
 * Whether showing the transaction needs its refunds at the PSP read (one query, psp_refunds by
 * transaction): only a PIX received through the merchant's PSP that was paid. Any other transaction,
 * and such a PIX before its payment (it can have none), is shown from its row alone.
 */
export function needsPspRefunds(t: Pick<TransactionRow, "paymentMethod" | "acquirerType" | "paidAt">): boolean {
  return refundsAtPsp(t) && t.paidAt !== null;
}

function pspRefundStatusOf(s: string): PspRefundStatus {
  if (!(PSP_REFUND_STATUSES as readonly string[]).includes(s)) throw new Error(`Stored PSP refund status ${s} is not one of the four`);
  return s as PspRefundStatus;
}

/** One refund asked of the merchant's PSP, as the transaction resource and the `refund` notification show it. */
export function pspRefundView(r: PspRefundRow) {
  const status = pspRefundStatusOf(r.status);
  return {
    id: r.id,
    amount: r.amount,
    status,
    /** Why the PSP did not make it (failed only; null otherwise). */
    reason: status === "failed" ? (r.failReason ?? PSP_REFUND_FAILED_DEFAULT_REASON) : null,
    /** The return's end-to-end id at the PSP (RtrId), once the PSP accepted it. */
    rtrId: r.rtrId,
    /** Who asked for it: the merchant (the API, the dashboard, a link's duplicate), or the PSP without Arara (a MED return, or a devolução made in the PSP's own app). */
    origin: r.initiatedBy === "psp" ? ("psp" as const) : ("merchant" as const),
    /** The devolução's natureza at the PSP: ORIGINAL for those Arara asks; MED_OPERACIONAL, MED_FRAUDE or MED_PIX_AUTOMATICO for a return the PSP made; ORIGINAL or null for one made in the PSP's own app. */
    natureza: r.initiatedBy === "psp" ? r.natureza : "ORIGINAL",
    /** The PSP's motivo of a return it made by itself, when it gave one (its free text: one line, at most 140 characters). */
    motivo: r.initiatedBy === "psp" ? untrustedLine(r.motivo, PSP_MOTIVO_MAX) : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
export type PspRefundView = ReturnType<typeof pspRefundView>;

/** What the refunds of a transaction still open at its PSP hold. */
export function pendingRefundAmountOf(rows: readonly Pick<PspRefundRow, "status" | "amount">[]): number {
  return rows.reduce((sum, r) => ((OPEN_PSP_REFUND_STATUSES as readonly string[]).includes(r.status) ? sum + r.amount : sum), 0);
}

/**
 * The refund fields of a PIX received through the merchant's PSP, from its psp_refunds rows (oldest
 * first); before its payment it has none, and needs none read. Nothing for any other transaction, and
 * nothing for such a PIX whose rows were not read (never an empty list that could be false).
 */
export function pspRefundFields(t: TransactionRow, rows: readonly PspRefundRow[] | undefined): { refunds?: PspRefundView[]; pendingRefundAmount?: number } {
  if (!refundsAtPsp(t)) return {};
  const list = rows ?? (t.paidAt === null ? [] : undefined);
  if (!list) return {};
  const sorted = [...list].sort((a, b) => a.id - b.id);
  return { refunds: sorted.map(pspRefundView), pendingRefundAmount: pendingRefundAmountOf(sorted) };
}

/**
 * The spec's Transaction resource, as the read and list endpoints return it. `pspRefunds`: the
 * transaction's psp_refunds rows, read by the caller when needsPspRefunds(t) (lib/services/
 * transactions/transaction-view.ts, pspRefundsOf).
 */
export function transactionResource(t: TransactionRow, pspRefunds?: readonly PspRefundRow[]) {
  const resource = {
    id: t.id,
    status: t.status,
    amount: t.amount,
    companyId: t.companyId,
    installments: t.installments,
    paidAmount: t.paidAmount,
    refundedAmount: t.refundedAmount,
    ...pspRefundFields(t, pspRefunds),
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
    // The notification's fee object on reads and lists too (a client books the fee from what it reads).
    fee: reportedFee(t),
    paidAt: t.paidAt ? t.paidAt.toISOString() : null,
    createdAt: t.createdAt.toISOString(),
  };
  return resource;
}
export type TransactionResource = ReturnType<typeof transactionResource>;


/**
 * The fee a transaction reports (`fees`, and `fee { netAmount, fixedAmount, estimatedFee }` on /v1
 * and in notifications). A refused card moved no money: no fee was charged and nothing is net, so
 * all three are 0 (the row keeps the plan's quote, which no journal ever posted). Every other
 * status reports the plan's fee and `netAmount` = what the payer was charged less the fee: the
 * amount, or for a card in installments with interest the paid total (more than the order's
 * amount), as the ledger credits it (paymentCreditOf, lib/domain/net-amount.ts).
 */
export function reportedFee(t: { status: string; amount: number; paidAmount: number; feeFixed: number; feeEstimated: number }): {
  netAmount: number;
  fixedAmount: number;
  estimatedFee: number;
} {
  if (t.status === "refused") return { netAmount: 0, fixedAmount: 0, estimatedFee: 0 };
  // paymentCreditOf (lib/domain/net-amount.ts), which the kernel may not import: the paid amount, else
  // the amount, less the fee (tests/integration/refused-card-fee.test.ts holds the two equal).
  const charged = t.paidAmount > 0 ? t.paidAmount : t.amount;
  return { netAmount: charged - t.feeEstimated, fixedAmount: t.feeFixed, estimatedFee: t.feeEstimated };
}

/**
 * Metadata as it was sent: an object or array sent comes back as that JSON value, a string as that
 * string (the /v1 dialect; /api/v1 shows the stored text). Rows from before the flag was kept, and a
 * text that no longer parses, are shown as the text.
 */
export function metadataAsSent(row: { metadata: string | null; metadataIsJson: boolean }): unknown {
  if (row.metadata === null || !row.metadataIsJson) return row.metadata;
  try {
    return JSON.parse(row.metadata) as unknown;
  } catch {
    return row.metadata;
  }
}

const BRASILIA_DAY = new Intl.DateTimeFormat("en-US", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" });

/** "YYYY-MM-DD" of `at` in Brasília (America/Sao_Paulo). */
function brasiliaDate(at: Date): string {
  const parts = BRASILIA_DAY.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/**
 * The PIX as /v1 shows it: the family's `expirationDate` is a day, AAAA-MM-DD (their clients write
 * `new Date(pix.expirationDate + "T23:59:59")`), here the day the QR code expires in Brasília;
 * `expiresAt` keeps the full time (what /api/v1 shows as expirationDate).
 */
function v1Pix(t: TransactionRow) {
  return {
    qrcode: t.pixQrcode ?? "",
    expirationDate: t.expiresAt ? brasiliaDate(t.expiresAt) : null,
    expiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
    end2end: t.pixEnd2end,
  };
}

/** A boleto's payment details, as a creation answers them (and /v1 everywhere). */
export function boletoView(t: Pick<TransactionRow, "secureId" | "boletoBarcode" | "boletoDigitableLine" | "boletoDueDate">) {
  return { url: boletoUrlOf(t.secureId), barcode: t.boletoBarcode, digitableLine: t.boletoDigitableLine, dueDate: t.boletoDueDate };
}

export function v1TransactionResource(t: TransactionRow, pspRefunds?: readonly PspRefundRow[]) {
  const resource = transactionResource(t, pspRefunds);
  return {
    ...resource,
    metadata: metadataAsSent(t),
    ...(t.paymentMethod === "pix" ? { pix: v1Pix(t) } : {}),
    // The family's object { code, acquirerCode, description, message, createdAt }, or null.
    refusedReason: v1RefusedReason(t),
    fees: reportedFee(t).estimatedFee,
    fee: reportedFee(t),
    postbackUrl: t.postbackUrl,
    externalRef: t.externalRef,
    ip: t.ip,
    items: t.items,
    ...(t.paymentMethod === "credit_card" ? { installments: t.installments, card: v1CardView(t) } : {}),
    ...(t.paymentMethod === "boleto"
      ? {
          // The family's name for the due date too (their clients read boleto.expirationDate).
          boleto: { ...boletoView(t), expirationDate: t.boletoDueDate },
        }
      : {}),
    updatedAt: t.updatedAt.toISOString(),
  };
}
