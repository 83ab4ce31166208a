import { chargedTotalOf } from "@/lib/domain/net-amount";
import { randomBase62 } from "@/lib/crypto";
import { getDb } from "@/lib/db/client";
import { isPastExpiry } from "@/lib/domain/expiry";
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";
import {
  canSandboxMove,
  findTransition,
  type PaymentMethod,
  type TransactionStatus,
} from "@/lib/domain/status";
import { getEnv } from "@/lib/env";
import { executeTransaction, type TransactionStep } from "@/lib/executor/execute";
import type { ServiceContext } from "../context";
import { accountInstallmentPlan } from "../accounts/installment-plan";
import { ServiceError, unprocessable } from "../errors";
import { getTransaction } from "./get-transaction";
import { payCharge, type ChargePayment } from "../checkouts/link-payment";
import { refundTransaction } from "./refund-transaction";
import type { TransactionRow } from "./transaction-view";

/**
 * ISPB written into the end-to-end id of PIX payments simulated by the sandbox PSP. ISPBs are the
 * 8-digit codes the Banco Central assigns to institutions; 99999999 is not assigned to any, so a
 * sandbox end2end id can never be mistaken for a real settlement.
 */
export const SANDBOX_PSP_ISPB = "99999999";

const DAY_MS = 86_400_000;

/** Body of `PUT /api/v1/transactions/{id}/test` (kept in lib/schemas, where the API reference reads it). */
export { SandboxMoveRequest } from "@/lib/schemas/sandbox";

/** What the sandbox PSP or acquirer reports with a payment. */
/**
 * What a card charge approved after `processing` was charged: its installment option's total (with
 * interest beyond the plan's interest-free installments), as a card approved at creation records
 * (create-transaction.ts, chargeCard). The plan is the charge's own, else its account's.
 */
function cardChargedTotal(t: TransactionRow, account: ServiceContext["account"]): number {
  return chargedTotalOf(t, accountInstallmentPlan(account));
}

function paymentPatch(t: TransactionRow, ctx: ServiceContext): ChargePayment["patch"] {
  const now = ctx.now;
  if (t.paymentMethod === "pix") {
    return { paidAt: now, paidAmount: t.amount, pixEnd2end: makeEnd2EndId(SANDBOX_PSP_ISPB, now, randomBase62(11)) };
  }
  if (t.paymentMethod === "credit_card") {
    // An asynchronous approval: funds wait for settlement like a card approved at creation.
    const days = getEnv().cardSettlementDays;
    const settlement = days === 0 ? { settleAt: null, settledAt: now } : { settleAt: new Date(now.getTime() + days * DAY_MS), settledAt: null };
    return { paidAt: now, paidAmount: cardChargedTotal(t, ctx.account), ...settlement };
  }
  return { paidAt: now, paidAmount: t.amount }; // boleto cleared
}

/**
 * The executor's step for a simulated event that is not a payment or a refund (those have verbs of
 * their own): what the PSP or acquirer would report with it.
 */
function stepFor(t: TransactionRow, to: TransactionStatus): TransactionStep {
  const cause = findTransition(t.paymentMethod as PaymentMethod, t.status as TransactionStatus, to)!.cause;
  switch (cause) {
    case "acquirer_refused":
      return { cause, transaction: t, facts: { refusedReason: "card_declined" } };
    case "payment_processing":
    case "chargeback":
    case "protest":
    case "protest_won":
    case "protest_lost":
      return { cause, transaction: t, facts: {} };
    default:
      throw new Error(`The sandbox moves ${t.status} -> ${to} (${cause}) through its own verb`);
  }
}

/**
 * `PUT /api/v1/transactions/{id}/test`: moves a test transaction as the sandbox PSP or acquirer
 * would: pay a PIX, clear a boleto, processing, refund (the whole rest, through the refund verb),
 * chargeback, protest (`in_protest`), protest won (`paid`) or lost (`chargedback`). Only moves of the
 * transition table; each writes its timeline entry, ledger journal and webhook in one db transaction.
 * A PIX or boleto past its expiry can no longer be paid (422 "expired").
 */
export async function sandboxMove(ctx: ServiceContext, rawId: string | number, to: TransactionStatus): Promise<TransactionRow> {
  const t = await getTransaction(ctx, rawId);
  if (t.livemode) {
    throw new ServiceError("forbidden", `Transaction ${t.id} is live; only test transactions can be moved in the sandbox.`);
  }
  if (t.acquirerType !== "sandbox") {
    // A charge made at a real PSP (api-pix) moves only on what that PSP reports.
    throw new ServiceError("forbidden", `Transaction ${t.id} was made by the ${t.acquirerType} processor; only sandbox transactions can be moved in the sandbox.`);
  }
  const from = t.status as TransactionStatus;
  const method = t.paymentMethod as PaymentMethod;
  if (!canSandboxMove(method, from, to)) {
    throw unprocessable(`A ${method} transaction cannot move from ${from} to ${to} in the sandbox.`);
  }
  if (from === "pending" && (to === "paid" || to === "processing") && isPastExpiry(t.expiresAt, ctx.now)) {
    const what = method === "boleto" ? "boleto" : "PIX charge";
    throw unprocessable(`This ${what} expired at ${t.expiresAt!.toISOString()} and can no longer be paid.`);
  }
  if (to === "refunded") return refundTransaction(ctx, t.id, {});
  if (to === "paid" && (from === "pending" || from === "processing")) {
    // A payment, under the payment link's rule: once another charge of the link is paid, this one
    // can no longer be (409). The sandbox may decline it; money from a real rail is returned instead
    // (recordRailPayment).
    const patch = paymentPatch(t, ctx);
    return getDb().transaction((tx) => payCharge(tx, ctx, t.id, { patch, whenLinkPaid: "refuse" }));
  }
  // The executor's conditional UPDATE makes a concurrent move of the same row a clean 409.
  return getDb().transaction((tx) => executeTransaction(tx, ctx, stepFor(t, to)));
}
