import type { CashOutStatus } from "./cash-out";
import {
  cashOutCompletionJournal,
  cashOutRequestJournal,
  cashOutReversalJournal,
  chargebackJournal,
  chargebackReversalJournal,
  duplicateReturnJournal,
  paymentJournal,
  pspRefundFromReserveJournal,
  pspRefundHoldJournal,
  pspRefundReleaseJournal,
  refundJournal,
  settlementJournal,
} from "./journals";
import { noColumns, paymentPatch, refundedTo } from "./transition-patches";
// Types only, and TransitionError used inside functions: status.ts re-exports this module, so
// nothing here may read one of its values while the modules load.
import { TransitionError, type PaymentMethod, type TransactionStatus } from "./status";

/**
 * THE money table. Every move of a transaction or a cash-out has a cause, and each cause has one
 * row here: the moves it allows (from, to, methods), the columns it sets from its typed facts, the
 * journal it posts (a pure builder of lib/domain/journals.ts, or `noMoney`), the event it writes
 * into the outbox and whether it leaves a timeline entry. The one executor (lib/executor) reads
 * this row, and nothing else, to change a status.
 *
 * The table is checked by the compiler: `TransactionFacts` and `CashOutFacts` list the causes, and
 * the `satisfies` below makes a cause without a row, or a row without a journal or an event, a
 * type error. The cause names are stored as they are in the timeline (`transaction_status_changes.cause`).
 */

export type * from "./transition-types";
import type {
  CashOutCause,
  CashOutFacts,
  CashOutRule,
  MoneyTable,
  TransactionCause,
  TransactionFacts,
  TransactionRule,
  TransitionCause,
} from "./transition-types";

/** The journal of a move that moves no money: said explicitly, so a forgotten journal is a type error. */
export const noMoney = (): null => null;

const ASYNC = ["pix", "boleto"] as const;
const CARD = ["credit_card"] as const;
const ALL = ["pix", "boleto", "credit_card"] as const;
const PIX = ["pix"] as const;

export const MONEY_TABLE = {
  created: {
    subject: "transaction",
    moves: [
      { from: null, to: "pending", methods: ASYNC },
      // A card is decided by the acquirer before the response, or left processing by an asynchronous one.
      { from: null, to: "paid", methods: CARD },
      { from: null, to: "refused", methods: CARD },
      { from: null, to: "processing", methods: CARD },
    ],
    patch: noColumns,
    journal: ({ after }) => (after.status === "paid" ? paymentJournal(after) : null),
    event: "status",
    timeline: "record",
  },
  payment_processing: {
    subject: "transaction",
    moves: [{ from: "pending", to: "processing", methods: ASYNC }],
    patch: noColumns,
    journal: noMoney,
    event: "status",
    timeline: "record",
  },
  payment_received: {
    subject: "transaction",
    moves: [
      { from: "pending", to: "paid", methods: ASYNC },
      { from: "processing", to: "paid", methods: ASYNC },
    ],
    patch: paymentPatch,
    journal: ({ after }) => paymentJournal(after),
    event: "status",
    timeline: "record",
  },
  acquirer_approved: {
    subject: "transaction",
    moves: [{ from: "processing", to: "paid", methods: CARD }],
    patch: paymentPatch,
    journal: ({ after }) => paymentJournal(after),
    event: "status",
    timeline: "record",
  },
  acquirer_refused: {
    subject: "transaction",
    moves: [{ from: "processing", to: "refused", methods: CARD }],
    patch: (f) => ({ refusedReason: f.refusedReason }),
    journal: noMoney,
    event: "status",
    timeline: "record",
  },
  partial_refund: {
    subject: "transaction",
    moves: [{ from: "paid", to: "same", methods: ALL }],
    patch: (f, before) => refundedTo(before, f.amount, false),
    journal: ({ before, facts }) => (facts.fromReserve ? pspRefundFromReserveJournal(before, facts.amount) : refundJournal(before, facts.amount)),
    // The spec's events are status changes: re-sending `paid` would tell a client to fulfil the order again.
    event: "none",
    timeline: "record",
  },
  refund: {
    subject: "transaction",
    moves: [{ from: "paid", to: "refunded", methods: ALL }],
    patch: (f, before) => refundedTo(before, f.amount, true),
    journal: ({ before, facts }) => (facts.fromReserve ? pspRefundFromReserveJournal(before, facts.amount) : refundJournal(before, facts.amount)),
    event: "status",
    timeline: "record",
  },
  duplicate_payment_refund: {
    subject: "transaction",
    moves: [{ from: "paid", to: "refunded", methods: ALL }],
    refines: "refund",
    patch: (f, before) => refundedTo(before, f.amount, true),
    journal: ({ before, facts }) => duplicateReturnJournal(before, facts),
    event: "status",
    timeline: "record",
  },
  chargeback: {
    subject: "transaction",
    moves: [{ from: "paid", to: "chargedback", methods: ALL }],
    patch: noColumns,
    journal: ({ after }) => chargebackJournal(after),
    event: "status",
    timeline: "record",
  },
  protest: {
    subject: "transaction",
    moves: [{ from: "chargedback", to: "in_protest", methods: ALL }],
    patch: noColumns,
    journal: noMoney,
    event: "status",
    timeline: "record",
  },
  protest_won: {
    subject: "transaction",
    moves: [{ from: "in_protest", to: "paid", methods: ALL }],
    patch: noColumns,
    journal: ({ after }) => chargebackReversalJournal(after),
    event: "status",
    timeline: "record",
  },
  protest_lost: {
    subject: "transaction",
    // The chargeback already took the money.
    moves: [{ from: "in_protest", to: "chargedback", methods: ALL }],
    patch: noColumns,
    journal: noMoney,
    event: "status",
    timeline: "record",
  },
  card_settled: {
    subject: "transaction",
    // Whatever the status (a refund or chargeback took its share first), what is left waiting settles.
    moves: [{ from: "any", to: "same", methods: CARD }],
    patch: (f) => ({ settledAt: f.settledAt }),
    journal: ({ before, facts }) => (facts.waiting > 0 ? settlementJournal(before, facts.waiting) : null),
    event: "none",
    timeline: "none",
  },
  // A devolução asked of the PSP that holds a PIX's money (API Pix): held until the PSP answers.
  psp_refund_requested: {
    subject: "transaction",
    moves: [{ from: "paid", to: "same", methods: PIX }],
    patch: noColumns,
    journal: ({ before, facts }) => pspRefundHoldJournal(before, facts.amount, { returnsDuplicate: facts.returnsDuplicate }),
    event: "none",
    timeline: "record",
  },
  psp_refund_failed: {
    subject: "transaction",
    // Whatever happened to the transaction meanwhile, what the request held is released.
    moves: [{ from: "any", to: "same", methods: PIX }],
    patch: noColumns,
    journal: ({ before, facts }) => (facts.reserved ? pspRefundReleaseJournal(before, facts.amount) : null),
    event: "none",
    timeline: "record",
  },
  cash_out_requested: {
    subject: "cash_out",
    moves: [{ from: null, to: "pending" }],
    patch: noColumns,
    journal: ({ after }) => cashOutRequestJournal(after),
    event: "status",
  },
  cash_out_processing: {
    subject: "cash_out",
    moves: [{ from: "pending", to: "processing" }],
    patch: (f) => ({ nextStepAt: f.nextStepAt }),
    journal: noMoney,
    event: "status",
  },
  cash_out_completed: {
    subject: "cash_out",
    moves: [{ from: "processing", to: "completed" }],
    patch: (f) => ({ end2endId: f.end2endId, completedAt: f.completedAt, nextStepAt: null }),
    journal: ({ after }) => cashOutCompletionJournal(after),
    event: "status",
  },
  cash_out_failed: {
    subject: "cash_out",
    moves: [
      { from: "pending", to: "failed" },
      { from: "processing", to: "failed" },
    ],
    patch: (f) => ({ failReason: f.failReason, nextStepAt: null }),
    journal: ({ after }) => cashOutReversalJournal(after),
    event: "status",
  },
} as const satisfies MoneyTable;

export const TRANSACTION_CAUSES = (Object.keys(MONEY_TABLE) as TransitionCause[]).filter(
  (c): c is TransactionCause => MONEY_TABLE[c].subject === "transaction",
);
export const CASH_OUT_CAUSES = (Object.keys(MONEY_TABLE) as TransitionCause[]).filter(
  (c): c is CashOutCause => MONEY_TABLE[c].subject === "cash_out",
);

export function transactionRule(cause: TransactionCause): TransactionRule<TransactionFacts[TransactionCause]> {
  return MONEY_TABLE[cause] as TransactionRule<TransactionFacts[TransactionCause]>;
}

export function cashOutRule(cause: CashOutCause): CashOutRule<CashOutFacts[CashOutCause]> {
  return MONEY_TABLE[cause] as CashOutRule<CashOutFacts[CashOutCause]>;
}

/** A status change of a transaction: one (from, to, methods) of a cause that is not a refinement. */
export type Transition = {
  readonly from: TransactionStatus;
  readonly to: TransactionStatus;
  readonly methods: readonly PaymentMethod[];
  readonly cause: TransactionCause;
};

/** The status changes of the table (no creation, no move that keeps the status, no refinement). */
export const TRANSITIONS: readonly Transition[] = TRANSACTION_CAUSES.flatMap((cause) => {
  const rule = transactionRule(cause);
  if (rule.refines) return [];
  return rule.moves.flatMap((m) =>
    m.from === null || m.from === "any" || m.to === "same" ? [] : [{ from: m.from, to: m.to, methods: m.methods, cause }],
  );
});

/**
 * The status a transaction is created in, by method (the `created` row). PIX and boleto wait for
 * the payer; a card is decided by the acquirer before the response, or left processing.
 */
export const CREATION_STATUSES: { readonly [M in PaymentMethod]: readonly TransactionStatus[] } = {
  pix: creationStatuses("pix"),
  boleto: creationStatuses("boleto"),
  credit_card: creationStatuses("credit_card"),
};

function creationStatuses(method: PaymentMethod): TransactionStatus[] {
  return MONEY_TABLE.created.moves.filter((m) => (m.methods as readonly string[]).includes(method)).map((m) => m.to);
}

export function findTransition(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): Transition | undefined {
  return TRANSITIONS.find((t) => t.from === from && t.to === to && t.methods.includes(method));
}

export function canTransition(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): boolean {
  return findTransition(method, from, to) !== undefined;
}

export function assertTransition(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): Transition {
  const transition = findTransition(method, from, to);
  if (!transition) throw new TransitionError(method, from, to);
  return transition;
}

/**
 * The status a transaction moves to under `cause` from `from`, or a TransitionError when the row
 * does not allow it. `null` from: a creation in `createdAs`.
 */
export function targetOf(
  cause: TransactionCause,
  method: PaymentMethod,
  from: TransactionStatus | null,
  createdAs?: TransactionStatus,
): TransactionStatus {
  const rule = transactionRule(cause);
  for (const m of rule.moves) {
    if (!m.methods.includes(method)) continue;
    if (from === null) {
      if (m.from === null && m.to === createdAs) return m.to;
      continue;
    }
    if (m.from === "any" || m.from === from) return m.to === "same" ? from : m.to;
  }
  const target = rule.moves.find((m) => m.to !== "same")?.to;
  throw new TransitionError(method, from, createdAs ?? (target === undefined || target === "same" ? (from as TransactionStatus) : target));
}

/** The cause of a payment arriving: an acquirer's approval for a card, a payment received otherwise. */
export function paymentCause(method: PaymentMethod): "acquirer_approved" | "payment_received" {
  return method === "credit_card" ? "acquirer_approved" : "payment_received";
}

/** The cash-out status `cause` moves to from `from` (null: the request), or null when the row does not allow it. */
export function cashOutTargetOf(cause: CashOutCause, from: CashOutStatus | null): CashOutStatus | null {
  return cashOutRule(cause).moves.find((m) => m.from === from)?.to ?? null;
}
