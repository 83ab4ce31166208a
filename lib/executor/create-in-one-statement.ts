import { getTableColumns, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { webhookEventKind, type PaymentMethod, type TransactionStatus } from "@/lib/domain/status";
import { targetOf, transactionRule } from "@/lib/domain/transitions";
import type { TransactionRow } from "@/lib/core/rows";
import { transactionEventValues } from "@/lib/webhooks/outbox";
import { OUTBOX_CHANNEL } from "@/lib/webhooks/wake";

/**
 * A creation in one statement: the transaction, its first timeline entry and its first outbox event
 * are written by a single INSERT with data-modifying CTEs (and, for an event to deliver, the NOTIFY
 * that wakes the dispatchers on commit). One statement is atomic on its own: without a caller's
 * transaction it needs no BEGIN/COMMIT, so a PIX charge costs two round trips (reserve the id, then
 * this) instead of seven. Inside a caller's transaction (the idempotency layer) it commits with it.
 *
 * This is the executor's `created` cause (lib/domain/transitions.ts) written as one statement: the
 * table decides the move, the timeline entry and the event, exactly as executeTransaction does. It
 * takes only creations whose row posts no journal (a PIX or boleto charge is created `pending`); one
 * that would (an approved card) goes through executeTransaction, which posts it in the same transaction.
 */

type NewTransaction = typeof transactions.$inferInsert & { id: number; status: TransactionStatus };

/**
 * Takes the next transaction id (the PIX txid and the boleto's number are built from it). One
 * `nextval` per creation, not a block cached in the process: ids stay gapless across a clean restart,
 * which is how tests/integration/shutdown-process.test.ts tells a clean stop from a crash recovery.
 */
export async function reserveTransactionId(q: Queryable): Promise<number> {
  const result = (await q.execute(sql`select nextval(pg_get_serial_sequence('transactions', 'id'))::text as id`)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: string }[];
  return Number(rows[0].id);
}

/**
 * The row as the database will store it: the values given, each other column's default. The outbox
 * payload is built from it before the statement runs (the statement itself returns the stored row,
 * which is what the caller gets; tests/integration/insert-transaction-statement.test.ts checks that
 * the two give the same payload).
 */
function rowOf(values: NewTransaction): TransactionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(transactions))) {
    const given = (values as Record<string, unknown>)[key];
    row[key] = given !== undefined ? given : column.default !== undefined && !(column.default instanceof Object) ? column.default : null;
  }
  return row as TransactionRow;
}

export async function insertTransactionWithCreation(
  q: Queryable,
  ctx: { actor: string; now: Date },
  values: NewTransaction,
): Promise<TransactionRow> {
  const expected = rowOf(values);
  const rule = transactionRule("created");
  targetOf("created", values.paymentMethod as PaymentMethod, null, values.status); // refuses a creation the table does not list
  if (rule.journal({ before: expected, after: expected, facts: {} })) {
    throw new Error(`A creation in ${values.status} posts a journal: use executeTransaction`);
  }
  const kind = webhookEventKind(values.paymentMethod as PaymentMethod, values.status, { isCreation: true });
  const event = transactionEventValues(expected, kind, ctx.now);

  const timeline = q.$with("timeline", { id: sql<number>`id` }).as(
    sql`${q
      .insert(transactionStatusChanges)
      .values({
        transactionId: values.id,
        fromStatus: null,
        toStatus: values.status,
        cause: "created",
        amount: values.amount,
        actor: ctx.actor,
        createdAt: ctx.now,
      })
      .returning({ id: transactionStatusChanges.id })
      .getSQL()}`,
  );
  const outbox = q.$with("outbox", { id: sql<number>`id` }).as(
    sql`${q.insert(webhookEvents).values(event).returning({ id: webhookEvents.id }).getSQL()}`,
  );
  // A data-modifying CTE runs whether or not the main query reads it; the NOTIFY is an expression of
  // the RETURNING list, so it runs only when there is an event to deliver.
  const notify =
    event.deliveryState === "pending" ? sql<string>`(select pg_notify(${OUTBOX_CHANNEL}, outbox.id::text) from outbox)` : sql<string>`null`;
  const [row] = await q
    .with(timeline, outbox)
    .insert(transactions)
    .overridingSystemValue()
    .values(values)
    .returning({ ...getTableColumns(transactions), notified: sql<string | null>`${notify}` });
  const stored: Partial<typeof row> = { ...row };
  delete stored.notified;
  return stored as TransactionRow;
}
