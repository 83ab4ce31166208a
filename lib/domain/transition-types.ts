import type { CashOutStatus } from "./cash-out";
import type { CashOutMoney, TransactionMoney } from "./journals";
import type { JournalDraft } from "./ledger";
import type { PaymentMethod, TransactionStatus } from "./status";

/**
 * The types of the money table (lib/domain/transitions.ts): the causes and the facts each needs,
 * the columns a move may set, and the shape of a row. Adding a cause to TransactionFacts or
 * CashOutFacts makes the table's `satisfies MoneyTable` ask for its row.
 */

/** Columns a payment sets: what the PSP, the bank or the acquirer reports with it. */
export type PaymentFacts = {
  paidAt: Date;
  paidAmount: number;
  pixEnd2end?: string | null;
  /** Card funds: when they settle (null and settledAt set: available at once). */
  settleAt?: Date | null;
  settledAt?: Date | null;
  /**
   * The payment arrived for a payment link another charge (this id) already paid: it is recorded
   * with the gateway's fee waived, and returned at once (`duplicate_payment_refund`).
   */
  returnedAsDuplicateOf?: number;
};

type NoFacts = Record<never, never>;

/** The facts each transaction cause needs, by name. */
export type TransactionFacts = {
  /** The verb inserted the row with what the processor said; the executor records it. */
  created: NoFacts;
  /** The PSP or bank reports the payment in flight. */
  payment_processing: NoFacts;
  /** PIX settled or boleto cleared. */
  payment_received: PaymentFacts;
  /** An asynchronous acquirer approves a card held in processing. */
  acquirer_approved: PaymentFacts;
  acquirer_refused: { refusedReason: string };
  /** Part of a paid transaction refunded: it stays paid. */
  partial_refund: RefundFacts;
  /** The refund that reaches what was paid. */
  refund: RefundFacts;
  /** A duplicate payment of a payment link returned by the gateway (not asked by the merchant). */
  duplicate_payment_refund: { amount: number; checkoutId: number; paidById: number };
  chargeback: NoFacts;
  /** The merchant contests the chargeback. */
  protest: NoFacts;
  protest_won: NoFacts;
  protest_lost: NoFacts;
  /** Card funds reaching their settlement date: `waiting` is what the sale still has waiting. */
  card_settled: { waiting: number; settledAt: Date };
  /**
   * A devolução asked of the PSP that holds the money (API Pix): its amount leaves available for
   * reserved until the PSP answers. `returnsDuplicate`: the return of a payment link's duplicate
   * payment, whose own payment credited it in the same transaction (unguarded, as duplicate_payment_refund).
   */
  psp_refund_requested: { amount: number; returnsDuplicate?: boolean };
  /**
   * The PSP did not make the devolução (NAO_REALIZADO, or refused the request): what was held goes
   * back to available. `reserved` false: a refund opened before refunds were held (nothing to release).
   */
  psp_refund_failed: { amount: number; reserved: boolean };
};

/**
 * A refund's amount. `fromReserve`: a PSP's devolução confirmed (DEVOLVIDO), paid from what
 * `psp_refund_requested` held in reserved, not from available.
 */
export type RefundFacts = { amount: number; fromReserve?: boolean };

/** The facts each cash-out cause needs. */
export type CashOutFacts = {
  cash_out_requested: NoFacts;
  cash_out_processing: { nextStepAt: Date };
  cash_out_completed: { end2endId: string; completedAt: Date };
  cash_out_failed: { failReason: string };
};

export type TransactionCause = keyof TransactionFacts;
export type CashOutCause = keyof CashOutFacts;
export type TransitionCause = TransactionCause | CashOutCause;

/** Columns of a transaction a move may set (besides its status). */
export type TransactionPatch = {
  paidAt?: Date;
  paidAmount?: number;
  pixEnd2end?: string | null;
  settleAt?: Date | null;
  settledAt?: Date | null;
  refusedReason?: string;
  refundedAmount?: number;
  duplicateOfId?: number;
  feeFixed?: number;
  feeEstimated?: number;
};

/** Columns of a cash-out a move may set (besides its status). */
export type CashOutPatch = {
  nextStepAt?: Date | null;
  end2endId?: string;
  completedAt?: Date;
  failReason?: string;
};

/**
 * One allowed move. `from: null` is a creation (the verb inserts the row in `to`); `"any"` with
 * `to: "same"` is a move that changes columns and money but not the status (a card's settlement).
 */
export type TransactionMove = {
  readonly from: TransactionStatus | null | "any";
  readonly to: TransactionStatus | "same";
  readonly methods: readonly PaymentMethod[];
};
export type CashOutMove = { readonly from: CashOutStatus | null; readonly to: CashOutStatus };

/** What a journal builder sees: the subject before and after the move, and the cause's facts. */
export type MoveMoney<S, F> = { before: S; after: S; facts: F };

/** Which outbox event a row writes: the subject's status event, or none. */
export type EventRule = "status" | "none";

export type TransactionRule<F> = {
  readonly subject: "transaction";
  readonly moves: readonly TransactionMove[];
  /** A cause that only names why a move of another cause happened (same moves, own journal). */
  readonly refines?: TransactionCause;
  readonly patch: (facts: F, before: TransactionMoney) => TransactionPatch;
  readonly journal: (m: MoveMoney<TransactionMoney, F>) => JournalDraft | null;
  readonly event: EventRule;
  readonly timeline: "record" | "none";
};

export type CashOutRule<F> = {
  readonly subject: "cash_out";
  readonly moves: readonly CashOutMove[];
  readonly patch: (facts: F) => CashOutPatch;
  readonly journal: (m: MoveMoney<CashOutMoney, F>) => JournalDraft | null;
  readonly event: EventRule;
};

export type MoneyTable = { readonly [C in TransactionCause]: TransactionRule<TransactionFacts[C]> } & {
  readonly [C in CashOutCause]: CashOutRule<CashOutFacts[C]>;
};
