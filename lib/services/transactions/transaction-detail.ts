import { desc, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { pspRefunds } from "@/lib/db/schema";
import { API_PIX_PROCESSOR } from "@/lib/processors/api-pix/config";
import { openRefundAmountOf } from "../psp/api-pix-refunds";
import { paidAmountOf } from "@/lib/domain/journals";
import { isPendingPastExpiry, offeredSandboxMoves } from "@/lib/domain/sandbox-offer";
import { feeViewOf, type FeeView } from "@/lib/domain/net-amount";
import { accountInstallmentPlan } from "../accounts/installment-plan";
import { linkPaymentOf } from "../checkouts/link-payment";
import type { TransactionStatus } from "@/lib/domain/status";
import type { ServiceContext } from "../context";
import { listTransactionWebhooks } from "../webhooks/list-transaction-webhooks";
import { dashboardWebhookItems, type DashboardWebhookItem } from "../webhooks/dashboard-webhook-items";
import { getTransaction } from "./get-transaction";
import { getTransactionTimeline, type TimelineEntry } from "./transaction-timeline";
import { secureUrlOf, type TransactionRow } from "./transaction-view";

/** Timeline causes whose entry shows an amount (refunds and PSP events). */
function showsAmount(e: TimelineEntry): boolean {
  return e.amount !== null && (e.cause === "partial_refund" || e.cause === "refund" || e.cause === "duplicate_payment_refund" || e.cause.startsWith("psp_"));
}

export type TransactionDetail = {
  transaction: TransactionRow;
  secureUrl: string;
  /** What was paid (0 until paid). */
  paid: number;
  /** What a refund may still take (0 unless paid), net of refunds still open at the merchant's PSP. */
  refundable: number;
  /** Refunds asked of the merchant's PSP (API Pix) and not answered yet: held in reserved, not yet refunded. */
  refundingAtPsp: number;
  /** The refund goes to the merchant's PSP as a devolução (a PIX received there). */
  refundsAtPsp: boolean;
  /** The latest devolução asked of the PSP, when the PSP did not make it: its amount (released) and why. */
  pspRefundFailed: { amount: number; reason: string; at: Date } | null;
  /** A pending charge past its expiry. */
  expired: boolean;
  /** Sandbox moves offered (none in live mode), in the table's order. */
  sandboxMoves: TransactionStatus[];
  /**
   * An open charge of a payment link another charge already paid: that charge's id. It can no longer be
   * paid (link-payment.ts): no payment is offered, no fee estimated.
   */
  linkPaidBy: number | null;
  /** The fee card: none, an estimate, or what was charged (lib/domain/net-amount.ts). */
  fee: FeeView;
  timeline: (TimelineEntry & { showAmount: boolean })[];
  webhooks: DashboardWebhookItem[];
};

export type RefundFigures = Pick<TransactionDetail, "paid" | "refundable" | "refundingAtPsp" | "refundsAtPsp">;

/**
 * What a transaction may still refund, as it reads now (in `db`, a caller's transaction too): what
 * was paid, less what was refunded and what open devoluções at the merchant's PSP hold. The one rule
 * the transaction page offers and the refund form's refusals explain.
 */
export async function refundFiguresOf(t: TransactionRow, db: Queryable = getDb()): Promise<RefundFigures> {
  const paid = t.paidAt ? paidAmountOf(t) : 0;
  const refundsAtPsp = t.acquirerType === API_PIX_PROCESSOR && t.paymentMethod === "pix";
  const refundingAtPsp = refundsAtPsp ? await openRefundAmountOf(db, t.id) : 0;
  return { paid, refundsAtPsp, refundingAtPsp, refundable: t.status === "paid" ? Math.max(0, paid - t.refundedAmount - refundingAtPsp) : 0 };
}

async function lastPspRefundFailure(transactionId: number, db: Queryable): Promise<TransactionDetail["pspRefundFailed"]> {
  const [last] = await db
    .select({ status: pspRefunds.status, amount: pspRefunds.amount, reason: pspRefunds.failReason, at: pspRefunds.updatedAt })
    .from(pspRefunds)
    .where(eq(pspRefunds.transactionId, transactionId))
    .orderBy(desc(pspRefunds.id))
    .limit(1);
  return last?.status === "failed" ? { amount: last.amount, reason: last.reason ?? "O PSP não realizou a devolução.", at: last.at } : null;
}

/** The dashboard's transaction page: the row, its history and webhooks, and the rules of what is offered. */
export async function getTransactionDetail(
  ctx: Pick<ServiceContext, "account" | "now">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<TransactionDetail> {
  const t = await getTransaction(ctx, rawId, db);
  const [timeline, webhooks] = await Promise.all([getTransactionTimeline(ctx, t.id, db), listTransactionWebhooks(ctx, t.id, db)]);
  const refundsAtPsp = t.acquirerType === API_PIX_PROCESSOR && t.paymentMethod === "pix";
  const [figures, pspRefundFailed] = await Promise.all([refundFiguresOf(t, db), refundsAtPsp ? lastPspRefundFailure(t.id, db) : null]);
  const open = t.status === "pending" || t.status === "processing";
  const linkPaidBy = open && t.checkoutId !== null ? ((await linkPaymentOf(db, t.checkoutId))?.id ?? null) : null;
  const moves = offeredSandboxMoves(t, ctx.now);
  return {
    transaction: t,
    secureUrl: secureUrlOf(t.secureId),
    ...figures,
    pspRefundFailed,
    expired: isPendingPastExpiry(t, ctx.now),
    // The sandbox would refuse to pay it (or move it towards paid): not offered.
    sandboxMoves: linkPaidBy === null ? moves : moves.filter((to) => to !== "paid" && to !== "processing"),
    linkPaidBy,
    fee: feeViewOf(t, accountInstallmentPlan(ctx.account), ctx.now, { linkPaidElsewhere: linkPaidBy !== null }),
    timeline: timeline.map((e) => ({ ...e, showAmount: showsAmount(e) })),
    webhooks: dashboardWebhookItems(webhooks, ctx.now),
  };
}
