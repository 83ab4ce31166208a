import { and, asc, count, eq, getTableColumns, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, type Db } from "@/lib/db/client";
import { companies, webhookAttempts, webhookEvents } from "@/lib/db/schema";
import { decrypt } from "@/lib/crypto";
import { getEnv } from "@/lib/env";
import { getLogger, scrub } from "@/lib/logger";
import { postJson, type PostResult } from "./http-post";
import { notificationBody } from "./payloads";
import { signedHeaders } from "./signing";
import { resolveDeliveryTarget } from "./ssrf";
import { listenOutbox } from "./wake";

/**
 * The webhook dispatcher: delivers the outbox (webhook_events) to the merchants' postback URLs.
 *
 * - Claiming: one statement selects due rows FOR UPDATE SKIP LOCKED and sets a lease (`locked_until`)
 *   on them, so any number of app instances and `npm run worker` processes share the work and no
 *   attempt is sent by two of them. A process that dies mid-delivery leaves the lease to expire; the
 *   row is then claimed again (at-least-once: the receiver deduplicates on `webhook-id`).
 * - Order: a row is claimable only when no earlier row (lower id) with the same ordering key
 *   (one transaction or cash-out) is still pending, so a transaction's events arrive in the order its
 *   changes were committed. A later event waits until the earlier one succeeded, finally failed or
 *   was skipped (`abandoned`, lib/services/skip-webhook-event.ts).
 * - Retries: the schedule of docs/api.md, Webhooks (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 *   10 h), then `failed`. Every attempt is a webhook_attempts row.
 * - Fencing: the result of an attempt updates the row only if the lease is still the one we set, so a
 *   delivery that outlived its lease cannot overwrite what the process that took over recorded.
 */

export type OutboxEvent = typeof webhookEvents.$inferSelect;
/** A claimed event with its account's encrypted webhook secret (read in the claiming statement). */
export type ClaimedEvent = OutboxEvent & { secretEnc: string };

export type DispatcherOptions = {
  /** Delay before each attempt in ms; the length is the number of automatic attempts. */
  scheduleMs: number[];
  timeoutMs: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Idle polling interval: the safety net when no wake arrives (lib/webhooks/wake.ts). */
  pollMs: number;
  /** Wake on the outbox channel's notifications (an event committed by any process). */
  listen: boolean;
};

export function dispatcherOptionsFromEnv(): DispatcherOptions {
  const env = getEnv();
  return {
    scheduleMs: env.webhookRetryScheduleMs,
    timeoutMs: env.webhookTimeoutMs,
    concurrency: env.webhookConcurrency,
    pollMs: 300,
    listen: true,
  };
}

/**
 * How long a claim holds a row: the delivery (DNS check up to 3 s, HTTP up to the timeout) plus
 * ample time to record the result. Long enough that a live process never loses a lease it uses;
 * short enough that a dead process's rows are retried soon.
 */
export function leaseMsFor(timeoutMs: number): number {
  return timeoutMs + 3_000 + 10_000;
}

/**
 * Claims up to `limit` due events, leasing them until `leaseUntil`: one statement, in a transaction
 * that only turns off sorting. That makes the planner walk the partial due index in time order and
 * stop after `limit` claimable rows, whatever its statistics say (PGlite never analyzes; a fresh
 * backlog is not analyzed yet): with a sort it would check the order rule on the whole backlog at
 * every claim.
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
            eq(webhookEvents.deliveryState, "pending"),
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
                    eq(earlier.deliveryState, "pending"),
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

// Decrypted webhook secrets by their ciphertext: a rotation changes the ciphertext, so the cache
// can never serve a stale secret.
const secretCache = new Map<string, string>();

function webhookSecretOf(enc: string): string | null {
  let secret = secretCache.get(enc) ?? null;
  if (!secret) {
    secret = decrypt(enc);
    if (secret) {
      if (secretCache.size > 10_000) secretCache.clear();
      secretCache.set(enc, secret);
    }
  }
  return secret;
}

/** The exact bytes POSTed for an event (signed as they are). */
export function notificationText(e: Pick<OutboxEvent, "id" | "type" | "url" | "payload" | "dialect">): string {
  return JSON.stringify(notificationBody(e));
}

/**
 * One HTTP attempt of an event: delivery-time SSRF check, Standard Webhooks signature with the
 * account's secret, POST with the timeout. Never throws.
 */
export async function attemptDelivery(
  event: Pick<OutboxEvent, "id" | "type" | "url" | "payload" | "dialect">,
  secret: string | null,
  at: Date,
  timeoutMs: number,
): Promise<PostResult> {
  const fail = (error: string): PostResult => ({ httpStatus: null, durationMs: 0, success: false, error, responseExcerpt: null });
  if (!event.url) return fail("the event has no URL to deliver to");
  if (!secret) return fail("the account's webhook secret cannot be decrypted with the configured KEY_ENCRYPTION_SECRET");
  const started = performance.now();
  const target = await resolveDeliveryTarget(event.url);
  if (!target.ok) return { ...fail(target.error), durationMs: Math.round(performance.now() - started) };
  const body = notificationText(event);
  return postJson(target.url, body, signedHeaders(secret, String(event.id), at, body), {
    timeoutMs,
    pinned: target.pinned,
  });
}

/** An attempt made on a leased event, waiting to be written. */
export type AttemptRecord = {
  event: Pick<OutboxEvent, "id" | "url" | "attempts" | "deliveryState" | "nextAttemptAt" | "lockedUntil">;
  result: PostResult;
  at: Date;
};

/**
 * Writes attempts and their events' next state, many in one db transaction (one commit for a whole
 * batch of deliveries). Automatic attempts follow the schedule; a manual one (redelivery) never
 * changes the schedule and only ever moves the event to `succeeded`. Each event's update is fenced by
 * the lease it was claimed with; returns the ids whose lease was lost (their attempt is logged all
 * the same, the event is left to the process that holds it now).
 */
export async function recordAttempts(
  db: Db,
  items: AttemptRecord[],
  opts: { manual: boolean; scheduleMs: number[] },
): Promise<number[]> {
  if (!items.length) return [];
  return db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values(
      items.map(({ event, result, at }) => ({
        eventId: event.id,
        attemptNumber: event.attempts + 1,
        manual: opts.manual,
        url: event.url ?? "",
        httpStatus: result.httpStatus,
        durationMs: result.durationMs,
        success: result.success,
        error: result.error ? scrub(result.error).slice(0, 1000) : null,
        responseExcerpt: result.responseExcerpt,
        createdAt: at,
      })),
    );
    // How many automatic attempts each failed event has had (this one included) picks the next delay.
    const retrying = items.filter((i) => !opts.manual && !i.result.success && i.event.deliveryState === "pending").map((i) => i.event.id);
    const automatic = new Map<number, number>();
    if (retrying.length) {
      const rows = await tx
        .select({ eventId: webhookAttempts.eventId, n: count() })
        .from(webhookAttempts)
        .where(and(inArray(webhookAttempts.eventId, retrying), eq(webhookAttempts.manual, false)))
        .groupBy(webhookAttempts.eventId);
      for (const r of rows) automatic.set(r.eventId, r.n);
    }
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    const rows = items.map(({ event, result, at }) => {
      let state = event.deliveryState;
      let next = event.nextAttemptAt;
      if (result.success) {
        state = "succeeded";
        next = null;
      } else if (automatic.has(event.id)) {
        const n = automatic.get(event.id)!;
        if (n >= opts.scheduleMs.length) {
          state = "failed";
          next = null;
        } else {
          next = new Date(at.getTime() + opts.scheduleMs[n]);
        }
      }
      return sql`(${event.id}::bigint, ${iso(event.lockedUntil)}::timestamptz, ${state}::text, ${iso(next)}::timestamptz, ${iso(at)}::timestamptz)`;
    });
    // One statement for the batch; `is not distinct from` fences each row by the lease it was claimed with.
    const result = await tx.execute(sql`
      update ${webhookEvents} as e
      set delivery_state = v.state, next_attempt_at = v.next, attempts = e.attempts + 1, last_attempt_at = v.at, locked_until = null
      from (values ${sql.join(rows, sql`, `)}) as v(id, lease, state, next, at)
      where e.id = v.id and e.locked_until is not distinct from v.lease
      returning e.id`);
    const updatedRows = (Array.isArray(result) ? result : (result as unknown as { rows: { id: unknown }[] }).rows) as { id: unknown }[];
    const updated = new Set(updatedRows.map((r) => Number(r.id)));
    const lost = items.map((i) => i.event.id).filter((id) => !updated.has(id));
    return lost;
  });
}

/** How long finished attempts wait to be written together (a few ms of latency, far fewer commits). */
const FLUSH_DELAY_MS = 10;

export type Dispatcher = {
  /** Stops claiming, waits for deliveries in flight to be recorded. */
  stop: () => Promise<void>;
  /** Claim now instead of at the next poll (e.g. after enqueueing). */
  wake: () => void;
  /** Resolves once the dispatcher listens to the outbox channel (at once when `listen` is off). */
  listening: Promise<void>;
  /** Outbox notifications received (each one woke the loop). */
  wakes: () => number;
};

/**
 * The background loop. Keeps up to `concurrency` deliveries in flight, each for a different
 * ordering key (a claim never returns two events of one key), claims again as soon as enough slots
 * are free, and polls every `pollMs` when idle.
 */
export function startDispatcher(overrides: Partial<DispatcherOptions> = {}, db: Db = getDb()): Dispatcher {
  const opts = { ...dispatcherOptionsFromEnv(), ...overrides };
  const log = getLogger().child({ job: "webhook-dispatcher" });
  const leaseMs = leaseMsFor(opts.timeoutMs);
  // Claiming one row per freed slot would cost a query per event; wait until half are free.
  const claimThreshold = Math.max(1, Math.floor(opts.concurrency / 2));
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        return resolve();
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });

  // Finished attempts are written by one flusher at a time: whatever finished while the previous
  // batch was being written goes in the next one, so under load a commit carries many attempts
  // and when idle an attempt is written at once.
  const finished: (AttemptRecord & { done: () => void })[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    // Let the other deliveries of the claim finish too: one commit instead of one per attempt.
    await new Promise((r) => setTimeout(r, FLUSH_DELAY_MS));
    while (finished.length) {
      const batch = finished.splice(0, 256);
      try {
        const lost = await recordAttempts(db, batch, { manual: false, scheduleMs: opts.scheduleMs });
        for (const id of lost) log.warn({ eventId: id }, "webhook lease expired before the attempt was recorded");
      } catch (err) {
        // The events stay leased and are attempted again when the lease expires (at-least-once).
        log.error({ err: scrub(String(err)), events: batch.map((b) => b.event.id) }, "webhook attempts could not be recorded");
      }
      for (const b of batch) b.done();
    }
    flushing = false;
  };

  const deliver = async (event: OutboxEvent, secret: string | null) => {
    const at = new Date();
    const result = await attemptDelivery(event, secret, at, opts.timeoutMs);
    if (!result.success) {
      log.info({ eventId: event.id, status: result.httpStatus, error: result.error }, "webhook attempt failed");
    }
    await new Promise<void>((done) => {
      finished.push({ event, result, at: new Date(at.getTime() + result.durationMs), done });
      if (!flushing) void flush();
    });
  };

  const launch = (event: OutboxEvent, secret: string | null) => {
    const p = deliver(event, secret)
      .catch((err) => log.error({ eventId: event.id, err: scrub(String(err)) }, "webhook delivery failed unexpectedly"))
      .finally(() => {
        inFlight.delete(p);
        if (opts.concurrency - inFlight.size >= claimThreshold) wake();
      });
    inFlight.add(p);
  };

  // Wake on commit: every committed event to deliver is announced on the outbox channel.
  let wakes = 0;
  let unlisten: (() => Promise<void>) | null = null;
  const listening = opts.listen
    ? listenOutbox(db, () => {
        wakes += 1;
        wake();
      }).then(
        (stop) => {
          unlisten = stop;
        },
        (err) => log.warn({ err: scrub(String(err)) }, "cannot listen to the outbox channel: polling only"),
      )
    : Promise.resolve();

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = opts.concurrency - inFlight.size;
      let full = false;
      if (free >= claimThreshold || inFlight.size === 0) {
        try {
          const now = new Date();
          const events = await claimDueEvents(db, now, free, new Date(now.getTime() + leaseMs));
          for (const e of events) launch(e, webhookSecretOf(e.secretEnc));
          full = events.length === free;
          failures = 0;
        } catch (err) {
          failures += 1;
          if (stopping) break;
          log.error({ err: scrub(String(err)) }, "webhook claim failed");
          await sleep(Math.min(30_000, opts.pollMs * 2 ** failures));
          continue;
        }
      }
      if (!full) await sleep(opts.pollMs);
    }
  })();

  return {
    wake,
    listening,
    wakes: () => wakes,
    stop: async () => {
      stopping = true;
      wake();
      await listening;
      await (unlisten as (() => Promise<void>) | null)?.().catch(() => {});
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
