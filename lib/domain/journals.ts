import { fundsAccountOfCashOut, fundsAccountOfTransaction, type JournalDraft } from "./ledger";
import { formatBRL } from "./money";

/**
 * The money side of every move of lib/domain/transitions.ts: pure builders from domain values to
 * the postings of one journal. The table names the builder of each cause; the executor posts what
 * it returns in the same database transaction as the status change and the outbox event.
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
 * - A cash-out leaves `available` at request (guarded: never below zero, so concurrent requests
 *   cannot overdraw) and waits in `reserved` while the PSP works; a completed transfer sends the
 *   amount to the PSP and the fee to the platform; a failed one returns both to `available`.
 * - A refund asked of the merchant's own PSP (API Pix devolução) is held the same way: it leaves
 *   `available` for `reserved` when it is requested (guarded), is paid from `reserved` when the PSP
 *   says DEVOLVIDO, and goes back to `available` when the PSP does not make it. All three are
 *   `refund` journals of the transaction; only the one at DEVOLVIDO changes what was refunded.
 * - Custody: a PIX received through the merchant's own PSP (API Pix) never reaches Arara, so every
 *   journal of such a transaction uses `available_at_psp` where the others use `available`, and so do
 *   the cash-outs sent from that PSP account (Efí): money held at the merchant's PSP is never paid out
 *   by Arara, and money Arara holds never by the merchant's PSP (ledger.ts, FundsAccount).
 */

/** What the journals read of a transaction (a database row fits it as it is). */
export type TransactionMoney = {
  id: number;
  companyId: number;
  paymentMethod: string;
  status: string;
  amount: number;
  paidAmount: number;
  refundedAmount: number;
  feeEstimated: number;
  settledAt: Date | null;
  /** Who took the payment: decides whether its money is Arara's to hold (fundsAccountOfTransaction). */
  acquirerType: string;
};

/** What the journals read of a cash-out (`processor`: who sends it, and so from which funds). */
export type CashOutMoney = { id: number; companyId: number; amount: number; fee: number; processor: string };

type FundsLines = { waiting: number; available: number };

/** What the payer paid. Moves to `paid` patch paidAmount; a row that was not patched counts the amount. */
export function paidAmountOf(t: Pick<TransactionMoney, "paidAmount" | "amount">): number {
  return t.paidAmount > 0 ? t.paidAmount : t.amount;
}

/** What can still be refunded on a paid transaction. */
export function refundableOf(t: Pick<TransactionMoney, "paidAmount" | "amount" | "refundedAmount">): number {
  return paidAmountOf(t) - t.refundedAmount;
}

function isUnsettledCard(t: Pick<TransactionMoney, "paymentMethod" | "settledAt">): boolean {
  return t.paymentMethod === "credit_card" && t.settledAt === null;
}

/**
 * The part of this transaction's money that sits in the merchant's `waiting_funds`, derived from
 * the row as the journals below move it (ledger:check compares it with the postings).
 */
export function waitingShare(t: Omit<TransactionMoney, "id" | "companyId" | "acquirerType">): number {
  if (!isUnsettledCard(t)) return 0;
  const net = Math.max(0, paidAmountOf(t) - t.feeEstimated);
  switch (t.status) {
    case "paid":
    case "refunded":
      return Math.max(0, net - t.refundedAmount);
    default:
      // chargedback and in_protest: the chargeback took everything not refunded, waiting share
      // first, so nothing is left waiting; pending, processing and refused never had any.
      return 0;
  }
}

/** Splits a debit of `amount` on a transaction: its own waiting share first, the rest from available. */
function splitDebit(amount: number, waiting: number): FundsLines {
  const fromWaiting = Math.min(amount, Math.max(0, waiting));
  return { waiting: fromWaiting, available: amount - fromWaiting };
}

function clearingOf(t: Pick<TransactionMoney, "paymentMethod">) {
  return t.paymentMethod === "credit_card" ? ("acquirer_clearing" as const) : ("psp_clearing" as const);
}

function onTransaction(t: TransactionMoney) {
  return { companyId: t.companyId, transactionId: t.id };
}

/** A payment (PIX paid, boleto cleared, card approved): `t` is the transaction after the move. */
export function paymentJournal(t: TransactionMoney): JournalDraft {
  const amount = paidAmountOf(t);
  const fee = t.feeEstimated;
  const fundsAccount = isUnsettledCard(t) ? ("waiting_funds" as const) : fundsAccountOfTransaction(t);
  return {
    ...onTransaction(t),
    kind: "payment",
    description: `Payment of transaction #${t.id}`,
    lines: [
      { owner: "platform", account: clearingOf(t), entryType: "payment", amount: -amount },
      { owner: "merchant", account: fundsAccount, entryType: "payment", amount },
      { owner: "merchant", account: fundsAccount, entryType: "fee", amount: -fee },
      { owner: "platform", account: "platform_fees", entryType: "fee", amount: fee },
    ],
  };
}

/**
 * A chargeback of a paid transaction (`t` after the move). The acquirer takes back what the payer
 * still has with the merchant. Available may go negative here, and only here (docs/api.md, Refunds): the
 * merchant cannot refuse a chargeback.
 */
export function chargebackJournal(t: TransactionMoney): JournalDraft {
  const amount = refundableOf(t);
  const split = splitDebit(amount, waitingShare({ ...t, status: "paid" }));
  return {
    ...onTransaction(t),
    kind: "chargeback",
    description: `Chargeback of transaction #${t.id}`,
    lines: [
      { owner: "merchant", account: "waiting_funds", entryType: "chargeback", amount: -split.waiting, mustStayNonNegative: true },
      { owner: "merchant", account: fundsAccountOfTransaction(t), entryType: "chargeback", amount: -split.available },
      { owner: "platform", account: clearingOf(t), entryType: "chargeback", amount },
    ],
  };
}

/**
 * A won protest returns the chargeback (`t` after the move, paid again); an unsettled card's share
 * goes back to waiting funds (and settles on its date), the rest to available.
 */
export function chargebackReversalJournal(t: TransactionMoney): JournalDraft {
  const amount = refundableOf(t);
  const toWaiting = Math.min(amount, waitingShare(t));
  return {
    ...onTransaction(t),
    kind: "chargeback_reversal",
    description: `Chargeback of transaction #${t.id} reversed`,
    lines: [
      { owner: "platform", account: clearingOf(t), entryType: "chargeback_reversal", amount: -amount },
      { owner: "merchant", account: "waiting_funds", entryType: "chargeback_reversal", amount: toWaiting },
      { owner: "merchant", account: fundsAccountOfTransaction(t), entryType: "chargeback_reversal", amount: amount - toWaiting },
    ],
  };
}

/**
 * A refund (full or partial) of `amount` on `t` as read (locked) before the refund. The merchant
 * pays it back through the clearing account; neither funds account may go negative (422
 * insufficient_balance), unlike a chargeback.
 */
export function refundJournal(t: TransactionMoney, amount: number): JournalDraft {
  const split = splitDebit(amount, waitingShare(t));
  return {
    ...onTransaction(t),
    kind: "refund",
    description: `Refund of ${formatBRL(amount)} on transaction #${t.id}`,
    lines: [
      { owner: "merchant", account: "waiting_funds", entryType: "refund", amount: -split.waiting, mustStayNonNegative: true },
      { owner: "merchant", account: fundsAccountOfTransaction(t), entryType: "refund", amount: -split.available, mustStayNonNegative: true },
      { owner: "platform", account: clearingOf(t), entryType: "refund", amount },
    ],
  };
}

/**
 * A devolução requested at the merchant's PSP (`t` as read, locked, before the request): its amount
 * leaves available and waits in reserved until the PSP answers, so no other debit can spend it and
 * the booking at DEVOLVIDO is covered. Guarded, unless it returns a payment link's duplicate payment
 * whose own journal just credited exactly this (as duplicateReturnJournal).
 */
export function pspRefundHoldJournal(t: TransactionMoney, amount: number, opts: { returnsDuplicate?: boolean } = {}): JournalDraft {
  return {
    ...onTransaction(t),
    kind: "refund",
    description: `Refund of ${formatBRL(amount)} on transaction #${t.id} requested at the PSP: held until the PSP returns it`,
    lines: [
      { owner: "merchant", account: fundsAccountOfTransaction(t), entryType: "refund", amount: -amount, mustStayNonNegative: !opts.returnsDuplicate },
      { owner: "merchant", account: "reserved", entryType: "refund", amount },
    ],
  };
}

/** The PSP returned the money (DEVOLVIDO): the refund is paid from what its request held in reserved. */
export function pspRefundFromReserveJournal(t: TransactionMoney, amount: number): JournalDraft {
  return {
    ...onTransaction(t),
    kind: "refund",
    description: `Refund of ${formatBRL(amount)} on transaction #${t.id} returned by the PSP`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "refund", amount: -amount, mustStayNonNegative: true },
      { owner: "platform", account: clearingOf(t), entryType: "refund", amount },
    ],
  };
}

/** The PSP did not make the devolução: what its request held goes back to available. */
export function pspRefundReleaseJournal(t: TransactionMoney, amount: number): JournalDraft {
  return {
    ...onTransaction(t),
    kind: "refund",
    description: `Refund of ${formatBRL(amount)} on transaction #${t.id} not made by the PSP: released to available`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "refund", amount: -amount, mustStayNonNegative: true },
      { owner: "merchant", account: fundsAccountOfTransaction(t), entryType: "refund", amount },
    ],
  };
}

/**
 * Money that arrived for a payment link another charge already paid, returned in full at once
 * (`t` as paid, before the refund). The fee was waived, so this takes back exactly what the payment
 * credited, and may do so even when a chargeback left the balance below zero: the lines are unguarded.
 */
export function duplicateReturnJournal(t: TransactionMoney, facts: { amount: number; checkoutId: number; paidById: number }): JournalDraft {
  const refund = refundJournal(t, facts.amount);
  return {
    ...refund,
    description: `Payment of transaction #${t.id} returned: payment link #${facts.checkoutId} was already paid by transaction #${facts.paidById}`,
    lines: refund.lines.map((line) => ({ ...line, mustStayNonNegative: false })),
  };
}

/** Card funds reaching their settlement date: what the sale still has waiting becomes available. */
export function settlementJournal(t: Pick<TransactionMoney, "id" | "companyId">, amountWaiting: number): JournalDraft {
  return {
    companyId: t.companyId,
    transactionId: t.id,
    kind: "settlement",
    description: `Card funds of transaction #${t.id} settled`,
    lines: [
      { owner: "merchant", account: "waiting_funds", entryType: "settlement", amount: -amountWaiting, mustStayNonNegative: true },
      { owner: "merchant", account: "available", entryType: "settlement", amount: amountWaiting },
    ],
  };
}

export function cashOutRequestJournal(c: CashOutMoney): JournalDraft {
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    kind: "cash_out",
    description: `PIX cash-out #${c.id} of ${formatBRL(c.amount)}`,
    lines: [
      { owner: "merchant", account: fundsAccountOfCashOut(c), entryType: "cash_out", amount: -c.amount, mustStayNonNegative: true },
      { owner: "merchant", account: fundsAccountOfCashOut(c), entryType: "cash_out_fee", amount: -c.fee, mustStayNonNegative: true },
      { owner: "merchant", account: "reserved", entryType: "cash_out", amount: c.amount },
      { owner: "merchant", account: "reserved", entryType: "cash_out_fee", amount: c.fee },
    ],
  };
}

export function cashOutCompletionJournal(c: CashOutMoney): JournalDraft {
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    kind: "cash_out",
    description: `PIX cash-out #${c.id} sent`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "cash_out", amount: -c.amount, mustStayNonNegative: true },
      { owner: "platform", account: "psp_clearing", entryType: "cash_out", amount: c.amount },
      { owner: "merchant", account: "reserved", entryType: "cash_out_fee", amount: -c.fee, mustStayNonNegative: true },
      { owner: "platform", account: "platform_fees", entryType: "cash_out_fee", amount: c.fee },
    ],
  };
}

export function cashOutReversalJournal(c: CashOutMoney): JournalDraft {
  const total = c.amount + c.fee;
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    kind: "cash_out_reversal",
    description: `PIX cash-out #${c.id} failed: ${formatBRL(total)} returned`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "cash_out_reversal", amount: -total, mustStayNonNegative: true },
      { owner: "merchant", account: fundsAccountOfCashOut(c), entryType: "cash_out_reversal", amount: total },
    ],
  };
}
