import { and, eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { transactions, transactionStatusChanges } from "@/lib/db/schema";
import { isCashOutStatus, type CashOutStatus } from "@/lib/domain/cash-out";
import { isTransactionStatus, webhookEventKind, type PaymentMethod, type TransactionStatus } from "@/lib/domain/status";
import {
  cashOutRule,
  cashOutTargetOf,
  targetOf,
  transactionRule,
  type CashOutFacts,
  type TransactionFacts,
} from "@/lib/domain/transitions";
import { postJournal } from "@/lib/ledger/post";
import type { CashOutRow, TransactionRow } from "@/lib/core/rows";
import { ServiceError } from "@/lib/core/errors";
import { enqueueCashOutEvent, enqueueTransactionEvent } from "@/lib/webhooks/outbox";
import { cashOutEventData } from "@/lib/webhooks/payloads";
import { moveCashOutInOneStatement, moveCashOutsInOneStatement, type CashOutMove } from "./cash-out-in-one-statement";

/**
 * The one executor: every change of a transaction or a cash-out (its creation included) runs here,
 * in the caller's database transaction, reading only its cause's row of the money table
 * (lib/domain/transitions.ts):
 *
 * 1. the row allows the move (method, from status) or a TransitionError is thrown;
 * 2. the subject's row is updated only if it is still in the status we read (`UPDATE ... WHERE
 *    status = <from> RETURNING *`): a concurrent move makes this one fail cleanly with a 409;
 * 3. the timeline entry (transactions), the journal the row builds, and the outbox event the row
 *    names are written, all in the same commit.
 */

type Ctx = { actor: string; now: Date };

function transactionStatusOf(s: string): TransactionStatus {
  if (!isTransactionStatus(s)) throw new Error(`Stored status ${s} is not one of the eight`);
  return s;
}

function cashOutStatusOf(s: string): CashOutStatus {
  if (!isCashOutStatus(s)) throw new Error(`Stored cash-out status ${s} is not one of the four`);
  return s;
}

/**
 * One move under one cause: the cause, its facts, and the subject as read (locked) before the move
 * under `subject` (`transaction` or `cashOut`); for a creation, the row just inserted.
 */
type StepOf<Facts, Subject extends string, Row> = {
  [C in keyof Facts]: { cause: C; facts: Facts[C] } & { [K in Subject]: Row };
}[keyof Facts];

export type TransactionStep = StepOf<TransactionFacts, "transaction", TransactionRow>;
export type CashOutStep = StepOf<CashOutFacts, "cashOut", CashOutRow>;

/** The row an `UPDATE ... WHERE status = <read> RETURNING *` moved, or a 409 when a concurrent move got there first. */
function movedOrConflict<Row>(rows: Row[], what: string): Row {
  const [updated] = rows;
  if (!updated) throw new ServiceError("conflict", `${what} changed while this request ran; read it and try again.`);
  return updated;
}

/** Moves (or records the creation of) a transaction under `step.cause`. Returns the row after the move. */
export async function executeTransaction(tx: Tx, ctx: Ctx, step: TransactionStep): Promise<TransactionRow> {
  const rule = transactionRule(step.cause);
  const before = step.transaction;
  const method = before.paymentMethod as PaymentMethod;
  const creation = step.cause === "created";
  const from = creation ? null : transactionStatusOf(before.status);
  const to = targetOf(step.cause, method, from, creation ? transactionStatusOf(before.status) : undefined);

  let after = before;
  if (!creation) {
    const rows = await tx
      .update(transactions)
      .set({ ...rule.patch(step.facts, before), status: to, updatedAt: ctx.now })
      .where(and(eq(transactions.id, before.id), eq(transactions.status, before.status)))
      .returning();
    after = movedOrConflict(rows, `Transaction ${before.id}`);
  }
  if (rule.timeline === "record") {
    await tx.insert(transactionStatusChanges).values({
      transactionId: after.id,
      fromStatus: from,
      toStatus: to,
      cause: step.cause,
      amount: timelineAmount(step, after),
      actor: ctx.actor,
      createdAt: ctx.now,
    });
  }
  // The event before the money: a guarded debit locks the balance rows until the commit, so it
  // comes last and nothing else runs while they are held (lib/ledger/post.ts).
  if (rule.event === "status") {
    await enqueueTransactionEvent(tx, after, webhookEventKind(method, to, { isCreation: creation }), ctx.now);
  }
  const journal = rule.journal({ before, after, facts: step.facts });
  if (journal) await postJournal(tx, { ...journal, now: ctx.now });
  return after;
}

/** Money the timeline entry is about: the charge's amount at creation, the amount of a refund. */
function timelineAmount(step: TransactionStep, after: TransactionRow): number | null {
  switch (step.cause) {
    case "created":
      return after.amount;
    case "partial_refund":
    case "refund":
    case "duplicate_payment_refund":
    case "psp_refund_requested":
    case "psp_refund_failed":
      return step.facts.amount;
    default:
      return null;
  }
}

/** Moves (or records the request of) a cash-out under `step.cause`. Returns the row after the move. */
export async function executeCashOut(tx: Tx, ctx: Ctx, step: CashOutStep): Promise<CashOutRow> {
  const rule = cashOutRule(step.cause);
  const before = step.cashOut;
  const creation = step.cause === "cash_out_requested";
  if (creation && cashOutTargetOf(step.cause, null) !== before.status) {
    throw new Error(`Cash-out ${before.id} cannot move from ${before.status} under ${step.cause}`);
  }
  if (!creation) return moveCashOutInOneStatement(tx, ctx, planCashOutMove(ctx, step));
  // The event first and the guarded debit last (see executeTransaction).
  if (rule.event === "status") await enqueueCashOutEvent(tx, before, cashOutEventData(before), ctx.now);
  const journal = rule.journal({ before, after: before, facts: step.facts });
  if (journal) await postJournal(tx, { ...journal, now: ctx.now });
  return before;
}

/**
 * A later move of a cash-out as the money table builds it: the move the row allows (or an error), the
 * columns it sets, the row after it (the row read plus those columns: the table's journal and the
 * event's payload are made from it) and its journal.
 */
function planCashOutMove(ctx: Ctx, step: CashOutStep): CashOutMove {
  const rule = cashOutRule(step.cause);
  const before = step.cashOut;
  const to = step.cause === "cash_out_requested" ? null : cashOutTargetOf(step.cause, cashOutStatusOf(before.status));
  if (to === null) throw new Error(`Cash-out ${before.id} cannot move from ${before.status} under ${step.cause}`);
  if (rule.event !== "status") throw new Error(`${step.cause} moves a cash-out without telling the merchant: the money table says otherwise`);
  const patch = rule.patch(step.facts);
  const after: CashOutRow = { ...before, ...patch, status: to, updatedAt: ctx.now };
  return { cashOut: before, patch, after, journal: rule.journal({ before, after, facts: step.facts }) };
}

/**
 * Later moves of several cash-outs (each once) under their causes, as executeCashOut makes each: in one
 * statement (lib/executor/cash-out-in-one-statement.ts, moveCashOutsInOneStatement), or, when that
 * wrote nothing (a merchant's ledger accounts not made yet, a move refused), one at a time, which makes
 * the accounts or throws the error the first refused move has. Returns the rows after the moves.
 */
export async function executeCashOutMoves(tx: Tx, ctx: Ctx, steps: CashOutStep[]): Promise<CashOutRow[]> {
  const moves = steps.map((step) => planCashOutMove(ctx, step));
  if (moves.length > 1) {
    const after = await moveCashOutsInOneStatement(tx, ctx, moves);
    if (after) return after;
  }
  const after: CashOutRow[] = [];
  for (const move of moves) after.push(await moveCashOutInOneStatement(tx, ctx, move));
  return after;
}
