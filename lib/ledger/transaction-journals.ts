import type { PostingLine } from "@/lib/domain/ledger";
import { formatBRL } from "@/lib/domain/money";
import type { TransactionStatus } from "@/lib/domain/status";
import type { TransactionRow } from "@/lib/services/transaction-view";
import type { JournalInput } from "./post";

/**
 * The money side of each status move of a transaction. Returns null for moves that move no money
 * (pending -> processing, a refusal, a protest). The rows passed in are the transaction after the move.
 *
 * Where the money sits:
 * - PIX and boleto are settled by the PSP at once: the payment lands in `available`.
 * - Card money is owed by the acquirer until settlement: it lands in `waiting_funds` and the
 *   settlement job moves it to `available` (unless CARD_SETTLEMENT_DAYS is 0: then `settledAt` is
 *   set at creation and it lands in `available` at once).
 * - A debit on an unsettled card (refund, chargeback) takes first from what that same sale still
 *   has in `waiting_funds`, and only the rest from `available`. Taking it all from `waiting_funds`
 *   would use other sales' receivables (and drive the account negative on a chargeback, which takes
 *   the gross while the sale left only the net there); taking it all from `available` would leave
 *   a card-only merchant unable to refund for 30 days. With this rule a sale's share of
 *   `waiting_funds` never goes below zero, and settlement moves exactly what is left of it.
 * - The gateway's fee is not returned on refund or chargeback.
 */

type FundsLines = { waiting: number; available: number };

/** What the payer paid. Moves to `paid` patch paidAmount; a row that was not patched counts the amount. */
export function paidAmountOf(t: Pick<TransactionRow, "paidAmount" | "amount">): number {
  return t.paidAmount > 0 ? t.paidAmount : t.amount;
}

function isUnsettledCard(t: Pick<TransactionRow, "paymentMethod" | "settledAt">): boolean {
  return t.paymentMethod === "credit_card" && t.settledAt === null;
}

/**
 * The part of this transaction's money that sits in the merchant's `waiting_funds`, derived from
 * the row as the journals below move it (ledger:check compares it with the postings).
 */
export function waitingShare(t: TransactionRow): number {
  if (!isUnsettledCard(t)) return 0;
  const paid = paidAmountOf(t);
  const net = Math.max(0, paid - t.feeEstimated);
  const status = t.status as TransactionStatus;
  switch (status) {
    case "paid":
    case "refunded":
      return Math.max(0, net - t.refundedAmount);
    case "chargedback":
    case "in_protest":
      // The chargeback took everything not refunded, waiting share first: nothing is left waiting.
      return 0;
    case "pending":
    case "processing":
    case "approved":
    case "refused":
      return 0;
  }
}

/** Splits a debit of `amount` on a transaction: its own waiting share first, the rest from available. */
function splitDebit(amount: number, waiting: number): FundsLines {
  const fromWaiting = Math.min(amount, Math.max(0, waiting));
  return { waiting: fromWaiting, available: amount - fromWaiting };
}

function clearingOf(t: TransactionRow) {
  return t.paymentMethod === "credit_card" ? ("acquirer_clearing" as const) : ("psp_clearing" as const);
}

export function journalForMove(
  after: TransactionRow,
  from: TransactionStatus | null,
  to: TransactionStatus,
  now: Date,
): JournalInput | null {
  const base = { companyId: after.companyId, transactionId: after.id, now };
  const clearing = clearingOf(after);

  if (to === "paid" && from !== "in_protest") {
    const amount = paidAmountOf(after);
    const fee = after.feeEstimated;
    const fundsAccount = isUnsettledCard(after) ? ("waiting_funds" as const) : ("available" as const);
    const lines: PostingLine[] = [
      { owner: "platform", account: clearing, entryType: "payment", amount: -amount },
      { owner: "merchant", account: fundsAccount, entryType: "payment", amount },
      { owner: "merchant", account: fundsAccount, entryType: "fee", amount: -fee },
      { owner: "platform", account: "platform_fees", entryType: "fee", amount: fee },
    ];
    return { ...base, kind: "payment", description: `Payment of transaction #${after.id}`, lines };
  }
  if (to === "chargedback" && from === "paid") {
    // The acquirer takes back what the payer still has with the merchant. Available may go
    // negative here, and only here (docs/api.md, Refunds): the merchant cannot refuse a chargeback.
    const amount = paidAmountOf(after) - after.refundedAmount;
    const split = splitDebit(amount, waitingShare({ ...after, status: "paid" }));
    return {
      ...base,
      kind: "chargeback",
      description: `Chargeback of transaction #${after.id}`,
      lines: [
        { owner: "merchant", account: "waiting_funds", entryType: "chargeback", amount: -split.waiting, mustStayNonNegative: true },
        { owner: "merchant", account: "available", entryType: "chargeback", amount: -split.available },
        { owner: "platform", account: clearing, entryType: "chargeback", amount },
      ],
    };
  }
  if (to === "paid" && from === "in_protest") {
    // A won protest returns the chargeback; an unsettled card's share goes back to waiting funds
    // (and settles on its date), the rest to available.
    const amount = paidAmountOf(after) - after.refundedAmount;
    const toWaiting = Math.min(amount, waitingShare(after));
    return {
      ...base,
      kind: "chargeback_reversal",
      description: `Chargeback of transaction #${after.id} reversed`,
      lines: [
        { owner: "platform", account: clearing, entryType: "chargeback_reversal", amount: -amount },
        { owner: "merchant", account: "waiting_funds", entryType: "chargeback_reversal", amount: toWaiting },
        { owner: "merchant", account: "available", entryType: "chargeback_reversal", amount: amount - toWaiting },
      ],
    };
  }
  if (to === "refunded") {
    // The money of a refund is posted by refundTransaction (refundJournal) in the same database
    // transaction, before this move: a move to refunded that does not carry the whole refund is
    // a caller that skipped it, and would leave the ledger short.
    if (after.refundedAmount !== paidAmountOf(after)) {
      throw new Error(
        `Transaction ${after.id} moved to refunded with refundedAmount ${after.refundedAmount} of ${paidAmountOf(after)}: refund through refundTransaction, which posts the refund journal.`,
      );
    }
    return null;
  }
  return null;
}

/**
 * A refund (full or partial) of `amount` on `t` as read (locked) before the refund. The merchant
 * pays it back through the clearing account; neither funds account may go negative (422
 * insufficient_balance), unlike a chargeback.
 */
export function refundJournal(t: TransactionRow, amount: number, now: Date): JournalInput {
  const split = splitDebit(amount, waitingShare(t));
  return {
    companyId: t.companyId,
    transactionId: t.id,
    now,
    kind: "refund",
    description: `Refund of ${formatBRL(amount)} on transaction #${t.id}`,
    lines: [
      { owner: "merchant", account: "waiting_funds", entryType: "refund", amount: -split.waiting, mustStayNonNegative: true },
      { owner: "merchant", account: "available", entryType: "refund", amount: -split.available, mustStayNonNegative: true },
      { owner: "platform", account: clearingOf(t), entryType: "refund", amount },
    ],
  };
}

/** Card funds reaching their settlement date: what the sale still has waiting becomes available. */
export function settlementJournal(t: TransactionRow, amountWaiting: number, now: Date): JournalInput {
  return {
    companyId: t.companyId,
    transactionId: t.id,
    now,
    kind: "settlement",
    description: `Card funds of transaction #${t.id} settled`,
    lines: [
      { owner: "merchant", account: "waiting_funds", entryType: "settlement", amount: -amountWaiting, mustStayNonNegative: true },
      { owner: "merchant", account: "available", entryType: "settlement", amount: amountWaiting },
    ],
  };
}
