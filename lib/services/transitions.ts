import { and, eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { transactions, transactionStatusChanges } from "@/lib/db/schema";
import {
  assertTransition,
  isTransactionStatus,
  webhookEventKind,
  type PaymentMethod,
  type TransactionStatus,
  type TransitionCause,
} from "@/lib/domain/status";
import { journalForMove } from "@/lib/ledger/transaction-journals";
import { postJournal } from "@/lib/ledger/post";
import { enqueueTransactionEvent } from "@/lib/webhooks/outbox";
import type { ServiceContext } from "./context";
import { ServiceError } from "./errors";
import type { TransactionRow } from "./transaction-view";

type Ctx = Pick<ServiceContext, "actor" | "now">;

function statusOf(s: string): TransactionStatus {
  if (!isTransactionStatus(s)) throw new Error(`Stored status ${s} is not one of the eight`);
  return s;
}

/**
 * Records a transaction just inserted: its first timeline entry, the ledger journal if it was
 * created paid (an approved card), and its first webhook. Call inside the creating transaction.
 */
export async function recordCreation(tx: Tx, ctx: Ctx, t: TransactionRow): Promise<void> {
  const status = statusOf(t.status);
  const kind = webhookEventKind(t.paymentMethod as PaymentMethod, status, { isCreation: true });
  await tx.insert(transactionStatusChanges).values({
    transactionId: t.id,
    fromStatus: null,
    toStatus: status,
    cause: "created",
    amount: t.amount,
    actor: ctx.actor,
    createdAt: ctx.now,
  });
  const journal = journalForMove(t, null, status, ctx.now);
  if (journal) await postJournal(tx, journal);
  await enqueueTransactionEvent(tx, t, kind, ctx.now);
}

export type MoveInput = {
  transaction: TransactionRow;
  to: TransactionStatus;
  /** Column changes that go with the move (paidAt, paidAmount, pixEnd2end, refundedAmount...). */
  patch?: Partial<typeof transactions.$inferInsert>;
  /** Money the move is about, recorded on the timeline entry (the amount of a full refund). */
  amount?: number | null;
  /** A timeline cause that says more than the table's (which it must refine): see REFINED_CAUSES. */
  cause?: RefinedCause;
};

/**
 * Timeline causes that name why a move of the table happened, when the table's cause alone would
 * mislead: a refund the gateway made because the payment arrived for a payment link already paid
 * (lib/services/link-payment.ts) is a `refund`, but not one the merchant asked for.
 */
const REFINED_CAUSES = { duplicate_payment_refund: "refund" } as const satisfies Record<string, TransitionCause>;
export type RefinedCause = keyof typeof REFINED_CAUSES;

/**
 * The one way a transaction's status changes: checks the transition table, updates the row only if
 * it is still in the status we read (a concurrent move makes this one fail cleanly with a 409),
 * writes the timeline entry, the ledger journal and the outbox event, all in the caller's
 * database transaction.
 */
export async function moveTransaction(tx: Tx, ctx: Ctx, input: MoveInput): Promise<TransactionRow> {
  const from = statusOf(input.transaction.status);
  const method = input.transaction.paymentMethod as PaymentMethod;
  const transition = assertTransition(method, from, input.to);
  if (input.cause && REFINED_CAUSES[input.cause] !== transition.cause) {
    throw new Error(`Cause ${input.cause} does not refine ${transition.cause} (${from} -> ${input.to})`);
  }
  const [after] = await tx
    .update(transactions)
    .set({ ...input.patch, status: input.to, updatedAt: ctx.now })
    .where(and(eq(transactions.id, input.transaction.id), eq(transactions.status, from)))
    .returning();
  if (!after) {
    throw new ServiceError("conflict", `Transaction ${input.transaction.id} changed while this request ran; read it and try again.`);
  }
  await tx.insert(transactionStatusChanges).values({
    transactionId: after.id,
    fromStatus: from,
    toStatus: input.to,
    cause: input.cause ?? (transition.cause satisfies TransitionCause),
    amount: input.amount ?? null,
    actor: ctx.actor,
    createdAt: ctx.now,
  });
  const journal = journalForMove(after, from, input.to, ctx.now);
  if (journal) await postJournal(tx, journal);
  await enqueueTransactionEvent(tx, after, webhookEventKind(method, input.to, { isCreation: false }), ctx.now);
  return after;
}
