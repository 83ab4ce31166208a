import { asc, eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { pspRefunds, webhookEvents } from "@/lib/db/schema";
import type { WebhookEventKind } from "@/lib/domain/status";
import type { PspRefundRow, TransactionRow } from "@/lib/core/rows";
import { needsPspRefunds } from "@/lib/core/transaction-resource";
import { refundEventPayload, transactionEventPayload } from "./payloads";
import { OUTBOX_CHANNEL } from "./wake";

/**
 * Runs the outbox insert; an event to deliver also notifies the dispatchers' channel in the same
 * statement (lib/webhooks/wake.ts): the NOTIFY fires when the caller's transaction commits.
 */
async function insertEvent(tx: Tx, values: typeof webhookEvents.$inferInsert): Promise<number> {
  const insert = tx.insert(webhookEvents).values(values).returning({ id: webhookEvents.id });
  if (values.deliveryState !== "pending") return (await insert)[0].id;
  const result = await tx.execute(sql`with e as (${insert.getSQL()}) select e.id, pg_notify(${OUTBOX_CHANNEL}, e.id::text) as n from e`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { id: unknown }[];
  return Number(rows[0].id);
}

/**
 * Writes a notification into the outbox, inside the caller's database transaction: it exists if and
 * only if the change it reports was committed. Without a postbackUrl the row is kept (`skipped`) for
 * the timeline and can be delivered by hand later.
 */
export async function enqueueTransactionEvent(tx: Tx, t: TransactionRow, kind: WebhookEventKind, now: Date): Promise<number> {
  // A paid PIX received through the merchant's PSP carries its refunds there as they stand in this
  // transaction (one query, for those charges only).
  const refunds = needsPspRefunds(t) ? await pspRefundRowsIn(tx, t.id) : undefined;
  return insertEvent(tx, transactionEventValues(t, kind, now, refunds));
}

/** The transaction's refunds at the merchant's PSP as the caller's transaction sees them, oldest first. */
function pspRefundRowsIn(tx: Tx, transactionId: number): Promise<PspRefundRow[]> {
  return tx.select().from(pspRefunds).where(eq(pspRefunds.transactionId, transactionId)).orderBy(asc(pspRefunds.id));
}

/**
 * The outbox row of a transaction's event (also written by lib/executor/create-in-one-statement.ts,
 * for a creation: a charge not yet paid has no refunds to read).
 */
export function transactionEventValues(
  t: TransactionRow,
  kind: WebhookEventKind,
  now: Date,
  refunds?: readonly PspRefundRow[],
): typeof webhookEvents.$inferInsert {
  return {
    companyId: t.companyId,
    type: "transaction",
    transactionId: t.id,
    orderingKey: `transaction:${t.id}`,
    status: kind,
    url: t.postbackUrl,
    ...transactionEventPayload(t, kind, refunds),
    deliveryState: t.postbackUrl ? "pending" : "skipped",
    nextAttemptAt: t.postbackUrl ? now : null,
    createdAt: now,
  };
}

/**
 * The `refund` notification of a refund asked of the merchant's PSP that reached its end (`done` or
 * `failed`), in the caller's database transaction: the one that marks the refund row and moves its
 * money (books it, or releases what it held) through the executor. It exists if and only if that
 * change committed, and only the transaction that moved the row out of its open status writes it, so
 * the PSP's notification and the reconciliation reporting the same outcome send it once. Same
 * postbackUrl, ordering key and dialect as the transaction's own events: it is delivered after the
 * events written before it (the `refunded` of a full refund's booking comes first).
 */
export async function enqueueRefundEvent(tx: Tx, t: TransactionRow, refund: PspRefundRow, now: Date): Promise<number> {
  const rows = await pspRefundRowsIn(tx, t.id);
  return insertEvent(tx, {
    companyId: t.companyId,
    type: "refund",
    transactionId: t.id,
    orderingKey: `transaction:${t.id}`,
    status: refund.status,
    url: t.postbackUrl,
    ...refundEventPayload(t, refund, rows),
    deliveryState: t.postbackUrl ? "pending" : "skipped",
    nextAttemptAt: t.postbackUrl ? now : null,
    createdAt: now,
  });
}

/** Cash-out notifications (`type: "cash_out"`), same outbox and same guarantees. */
export async function enqueueCashOutEvent(tx: Tx, c: CashOutEventSubject, data: Record<string, unknown>, now: Date): Promise<number> {
  return insertEvent(tx, cashOutEventValues(c, data, now));
}

type CashOutEventSubject = { id: number; companyId: number; postbackUrl: string | null; status: string };

/** The outbox row of a cash-out's event (also written by lib/executor/cash-out-in-one-statement.ts). */
export function cashOutEventValues(c: CashOutEventSubject, data: Record<string, unknown>, now: Date): typeof webhookEvents.$inferInsert {
  return {
    companyId: c.companyId,
    type: "cash_out",
    cashOutId: c.id,
    orderingKey: `cash_out:${c.id}`,
    status: c.status,
    url: c.postbackUrl,
    payload: data,
    deliveryState: c.postbackUrl ? "pending" : "skipped",
    nextAttemptAt: c.postbackUrl ? now : null,
    createdAt: now,
  };
}
