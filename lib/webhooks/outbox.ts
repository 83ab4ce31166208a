import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import type { WebhookEventKind } from "@/lib/domain/status";
import type { TransactionRow } from "@/lib/core/rows";
import { transactionEventPayload } from "./payloads";
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
  return insertEvent(tx, transactionEventValues(t, kind, now));
}

/** The outbox row of a transaction's event (also written by lib/executor/create-in-one-statement.ts). */
export function transactionEventValues(t: TransactionRow, kind: WebhookEventKind, now: Date): typeof webhookEvents.$inferInsert {
  return {
    companyId: t.companyId,
    type: "transaction",
    transactionId: t.id,
    orderingKey: `transaction:${t.id}`,
    status: kind,
    url: t.postbackUrl,
    ...transactionEventPayload(t, kind),
    deliveryState: t.postbackUrl ? "pending" : "skipped",
    nextAttemptAt: t.postbackUrl ? now : null,
    createdAt: now,
  };
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
