import { and, asc, eq, getTableColumns, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { companies, webhookEvents } from "@/lib/db/schema";

/**
 * Claiming the outbox: one statement selects due rows FOR UPDATE SKIP LOCKED and sets a lease
 * (`locked_until`) on them, so any number of app instances and `npm run worker` processes share the
 * work and no attempt is sent by two of them. A process that dies mid-delivery leaves the lease to
 * expire; the row is then claimed again (at-least-once: the receiver deduplicates on `webhook-id`).
 *
 * Order: a row is claimable only when no earlier row (lower id) with the same ordering key (one
 * transaction or cash-out) is still pending, so a claim never holds two events of one key and a
 * transaction's events arrive in the order its changes were committed.
 */

export type OutboxEvent = typeof webhookEvents.$inferSelect;
/** A claimed event with its account's encrypted webhook secret (read in the claiming statement). */
export type ClaimedEvent = OutboxEvent & { secretEnc: string };

/**
 * How long a claim holds a row: `rounds` deliveries one after the other (a claimed event may wait
 * for the ones ahead of it in this process: DNS check up to 3 s, HTTP up to the timeout, each) plus
 * ample time to record the result. Long enough that a live process never loses a lease it uses;
 * short enough that a dead process's rows are retried soon.
 */
export function leaseMsFor(timeoutMs: number, rounds = 1): number {
  return Math.max(1, rounds) * (timeoutMs + 3_000) + 10_000;
}

/**
 * Claims up to `limit` due events, leasing them until `leaseUntil`: one statement, in a transaction
 * that only turns off sorting. That makes the planner walk the partial due index in time order and
 * stop after `limit` claimable rows, whatever its statistics say (PGlite never analyzes; a fresh
 * backlog is not analyzed yet): with a sort it would check the order rule on the whole backlog at
 * every claim. `delivery_state = 'pending'` is written as a literal, not a parameter: the statement is
 * prepared (lib/db/pglite-statements.ts), and a generic plan can use a partial index only when the
 * index's predicate follows from the query's text.
 */
export async function claimDueEvents(db: Db, now: Date, limit: number, leaseUntil: Date): Promise<ClaimedEvent[]> {
  if (limit <= 0) return [];
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    const earlier = alias(webhookEvents, "earlier");
    const due = tx.$with("due").as(
      tx
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(
          and(
            sql`${webhookEvents.deliveryState} = 'pending'`, // a literal: see above
            lte(webhookEvents.nextAttemptAt, now),
            or(isNull(webhookEvents.lockedUntil), lt(webhookEvents.lockedUntil, now)),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(earlier)
                .where(
                  and(
                    eq(earlier.orderingKey, webhookEvents.orderingKey),
                    lt(earlier.id, webhookEvents.id),
                    sql`${earlier.deliveryState} = 'pending'`,
                  ),
                ),
            ),
          ),
        )
        // Oldest due first. Order inside a transaction is the NOT EXISTS above, not this ORDER BY.
        .orderBy(asc(webhookEvents.nextAttemptAt))
        .limit(limit)
        .for("update", { skipLocked: true }),
    );
    return tx
      .with(due)
      .update(webhookEvents)
      .set({ lockedUntil: leaseUntil })
      .from(companies)
      .where(and(inArray(webhookEvents.id, tx.select({ id: due.id }).from(due)), eq(companies.id, webhookEvents.companyId)))
      .returning({ ...getTableColumns(webhookEvents), secretEnc: companies.webhookSecretEnc });
  });
}

/**
 * Gives back claimed events this process will not attempt (it is stopping): their lease ends now, so
 * another process takes them at once instead of after the lease. Fenced like a result: a row whose
 * lease is no longer ours is left alone.
 */
export async function releaseClaims(db: Db, events: Pick<OutboxEvent, "id" | "lockedUntil">[]): Promise<void> {
  if (!events.length) return;
  const rows = events.map((e) => sql`(${e.id}::bigint, ${e.lockedUntil ? e.lockedUntil.toISOString() : null}::timestamptz)`);
  await db.execute(sql`
    update ${webhookEvents} as e set locked_until = null
    from (values ${sql.join(rows, sql`, `)}) as v(id, lease)
    where e.id = v.id and e.locked_until is not distinct from v.lease`);
}
