import { and, asc, count, eq, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
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

/**
 * The webhook dispatcher: delivers the outbox (webhook_events) to the merchants' postback URLs.
 *
 * - Claiming: one statement selects due rows FOR UPDATE SKIP LOCKED and sets a lease (`locked_until`)
 *   on them, so any number of app instances and `npm run worker` processes share the work and no
 *   attempt is sent by two of them. A process that dies mid-delivery leaves the lease to expire; the
 *   row is then claimed again (at-least-once: the receiver deduplicates on `webhook-id`).
 * - Order: a row is claimable only when no earlier row (lower id) with the same ordering key
 *   (one transaction or cash-out) is still pending, so a transaction's events arrive in the order its
 *   changes were committed. A later event waits until the earlier one succeeded or finally failed.
 * - Retries: decisions.md's schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then
 *   `failed`. Every attempt is a webhook_attempts row.
 * - Fencing: the result of an attempt updates the row only if the lease is still the one we set, so a
 *   delivery that outlived its lease cannot overwrite what the process that took over recorded.
 */

export type OutboxEvent = typeof webhookEvents.$inferSelect;

export type DispatcherOptions = {
  /** Delay before each attempt in ms; the length is the number of automatic attempts. */
  scheduleMs: number[];
  timeoutMs: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Idle polling interval. */
  pollMs: number;
};

export function dispatcherOptionsFromEnv(): DispatcherOptions {
  const env = getEnv();
  return {
    scheduleMs: env.webhookRetryScheduleMs,
    timeoutMs: env.webhookTimeoutMs,
    concurrency: env.webhookConcurrency,
    pollMs: 300,
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

/** Claims up to `limit` due events, leasing them until `leaseUntil`. One statement. */
export async function claimDueEvents(db: Db, now: Date, limit: number, leaseUntil: Date): Promise<OutboxEvent[]> {
  if (limit <= 0) return [];
  const earlier = alias(webhookEvents, "earlier");
  const due = db.$with("due").as(
    db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(
        and(
          eq(webhookEvents.deliveryState, "pending"),
          lte(webhookEvents.nextAttemptAt, now),
          or(isNull(webhookEvents.lockedUntil), lt(webhookEvents.lockedUntil, now)),
          notExists(
            db
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
      .orderBy(asc(webhookEvents.nextAttemptAt), asc(webhookEvents.id))
      .limit(limit)
      .for("update", { skipLocked: true }),
  );
  return db
    .with(due)
    .update(webhookEvents)
    .set({ lockedUntil: leaseUntil })
    .where(inArray(webhookEvents.id, db.select({ id: due.id }).from(due)))
    .returning();
}

// Decrypted webhook secrets by their ciphertext: a rotation changes the ciphertext, so the cache
// can never serve a stale secret.
const secretCache = new Map<string, string>();

async function webhookSecretsOf(db: Db, companyIds: number[]): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  if (!companyIds.length) return out;
  const rows = await db
    .select({ id: companies.id, enc: companies.webhookSecretEnc })
    .from(companies)
    .where(inArray(companies.id, companyIds));
  for (const r of rows) {
    let secret = secretCache.get(r.enc) ?? null;
    if (!secret) {
      secret = decrypt(r.enc);
      if (secret) {
        if (secretCache.size > 10_000) secretCache.clear();
        secretCache.set(r.enc, secret);
      }
    }
    out.set(r.id, secret);
  }
  return out;
}

/** The exact bytes POSTed for an event (signed as they are). */
export function notificationText(e: Pick<OutboxEvent, "id" | "type" | "url" | "payload">): string {
  return JSON.stringify(notificationBody(e));
}

/**
 * One HTTP attempt of an event: delivery-time SSRF check, Standard Webhooks signature with the
 * account's secret, POST with the timeout. Never throws.
 */
export async function attemptDelivery(
  event: Pick<OutboxEvent, "id" | "type" | "url" | "payload">,
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

/**
 * Writes an attempt and the event's next state in one db transaction. Automatic attempts follow the
 * schedule; a manual one (redelivery) never changes the schedule and only ever moves the event to
 * `succeeded`. Returns false when the lease was lost (the attempt is logged all the same).
 */
export async function recordAttempt(
  db: Db,
  event: Pick<OutboxEvent, "id" | "url" | "attempts" | "deliveryState" | "lockedUntil">,
  result: PostResult,
  at: Date,
  opts: { manual: boolean; scheduleMs: number[] },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
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
    });
    let next: Partial<typeof webhookEvents.$inferInsert> = {};
    if (result.success) {
      next = { deliveryState: "succeeded", nextAttemptAt: null };
    } else if (!opts.manual && event.deliveryState === "pending") {
      const [{ automatic }] = await tx
        .select({ automatic: count() })
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.eventId, event.id), eq(webhookAttempts.manual, false)));
      next =
        automatic >= opts.scheduleMs.length
          ? { deliveryState: "failed", nextAttemptAt: null }
          : { nextAttemptAt: new Date(at.getTime() + opts.scheduleMs[automatic]) };
    }
    const fence = event.lockedUntil ? eq(webhookEvents.lockedUntil, event.lockedUntil) : isNull(webhookEvents.lockedUntil);
    const updated = await tx
      .update(webhookEvents)
      .set({ ...next, attempts: sql`${webhookEvents.attempts} + 1`, lastAttemptAt: at, lockedUntil: null })
      .where(and(eq(webhookEvents.id, event.id), fence))
      .returning({ id: webhookEvents.id });
    return updated.length > 0;
  });
}

export type Dispatcher = {
  /** Stops claiming, waits for deliveries in flight to be recorded. */
  stop: () => Promise<void>;
  /** Claim now instead of at the next poll (e.g. after enqueueing). */
  wake: () => void;
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
  // Claiming one row per freed slot would cost a query per event; wait until a quarter are free.
  const claimThreshold = Math.max(1, Math.floor(opts.concurrency / 4));
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

  const deliver = async (event: OutboxEvent, secret: string | null) => {
    const at = new Date();
    const result = await attemptDelivery(event, secret, at, opts.timeoutMs);
    const kept = await recordAttempt(db, event, result, new Date(at.getTime() + result.durationMs), {
      manual: false,
      scheduleMs: opts.scheduleMs,
    });
    if (!kept) log.warn({ eventId: event.id }, "webhook lease expired before the attempt was recorded");
    if (!result.success) {
      log.info({ eventId: event.id, status: result.httpStatus, error: result.error }, "webhook attempt failed");
    }
  };

  const launch = (event: OutboxEvent, secret: string | null) => {
    const p = deliver(event, secret)
      .catch((err) => log.error({ eventId: event.id, err: scrub(String(err)) }, "webhook delivery could not be recorded"))
      .finally(() => {
        inFlight.delete(p);
        if (opts.concurrency - inFlight.size >= claimThreshold) wake();
      });
    inFlight.add(p);
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = opts.concurrency - inFlight.size;
      let full = false;
      if (free >= claimThreshold || inFlight.size === 0) {
        try {
          const now = new Date();
          const events = await claimDueEvents(db, now, free, new Date(now.getTime() + leaseMs));
          const secrets = await webhookSecretsOf(db, [...new Set(events.map((e) => e.companyId))]);
          for (const e of events) launch(e, secrets.get(e.companyId) ?? null);
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
    stop: async () => {
      stopping = true;
      wake();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
