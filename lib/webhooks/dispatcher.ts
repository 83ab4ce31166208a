import { getDb, type Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLogger, scrub } from "@/lib/logger";
import { attemptDelivery, recordAttempts, webhookSecretOf, type AttemptRecord } from "./attempts";
import { claimDueEvents, leaseMsFor, releaseClaims, type ClaimedEvent } from "./claim";
import { listenOutbox } from "./wake";

export { attemptDelivery, notificationText, recordAttempts, type AttemptRecord } from "./attempts";
export { claimDueEvents, leaseMsFor, type ClaimedEvent, type OutboxEvent } from "./claim";

/**
 * The webhook dispatcher: delivers the outbox (webhook_events) to the merchants' postback URLs.
 *
 * - Claiming (lib/webhooks/claim.ts): due rows are leased FOR UPDATE SKIP LOCKED, a batch per
 *   statement, so any number of app instances and `npm run worker` processes share the work and no
 *   attempt is sent by two of them (at-least-once: the receiver deduplicates on `webhook-id`).
 * - Order: a claim never holds two events of one ordering key (one transaction or cash-out), and a
 *   later event becomes claimable only once the earlier one is recorded as succeeded, finally failed
 *   or skipped (`abandoned`, lib/services/skip-webhook-event.ts).
 * - Retries: the schedule of docs/api.md, Webhooks (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 *   10 h), then `failed`. Every attempt is a webhook_attempts row (lib/webhooks/attempts.ts).
 * - Fencing: the result of an attempt updates the row only if the lease is still the one we set, so a
 *   delivery that outlived its lease cannot overwrite what the process that took over recorded.
 */

export type DispatcherOptions = {
  /** Delay before each attempt in ms; the length is the number of automatic attempts. */
  scheduleMs: number[];
  timeoutMs: number;
  /** HTTP deliveries in flight at once in this process. */
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
 * A claim takes up to this many rounds of `concurrency` deliveries (one statement for many events);
 * the lease covers the wait of the last one (leaseMsFor).
 */
const CLAIM_ROUNDS = 4;
/** How long finished attempts wait to be written together (a few ms of latency, far fewer commits). */
const FLUSH_DELAY_MS = 5;
/** Attempts sent but not yet written, above which nothing more is claimed (the database is behind). */
const MAX_UNRECORDED = 1024;

export type Dispatcher = {
  /** Stops claiming, waits for deliveries in flight to be recorded, gives back unstarted claims. */
  stop: () => Promise<void>;
  /** Claim now instead of at the next poll (e.g. after enqueueing). */
  wake: () => void;
  /** Resolves once the dispatcher listens to the outbox channel (at once when `listen` is off). */
  listening: Promise<void>;
  /** Outbox notifications received (each one woke the loop). */
  wakes: () => number;
};

/**
 * The background loop. Claims batches of due events into a local queue, keeps up to `concurrency`
 * HTTP deliveries in flight (a slot is freed as soon as the receiver answers; the result is written
 * in the next batch), claims again when less than a round is queued, and polls every `pollMs` when
 * idle.
 */
export function startDispatcher(overrides: Partial<DispatcherOptions> = {}, db: Db = getDb()): Dispatcher {
  const opts = { ...dispatcherOptionsFromEnv(), ...overrides };
  const log = getLogger().child({ job: "webhook-dispatcher" });
  const batchSize = opts.concurrency * CLAIM_ROUNDS;
  const leaseMs = leaseMsFor(opts.timeoutMs, CLAIM_ROUNDS);
  const queue: ClaimedEvent[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let more = false; // the last claim was full: more events are probably due
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
  // and when idle an attempt is written at once. A write also releases the events queued behind
  // the recorded ones (same ordering key): the loop is woken to claim them.
  const finished: AttemptRecord[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async () => {
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
    }
    flushing = null;
    if (!stopping) wake();
  };
  const record = (r: AttemptRecord) => {
    finished.push(r);
    flushing ??= flush();
  };

  const launch = (event: ClaimedEvent) => {
    const p = (async () => {
      const at = new Date();
      const result = await attemptDelivery(event, webhookSecretOf(event.secretEnc), at, opts.timeoutMs);
      if (!result.success) {
        log.info({ eventId: event.id, status: result.httpStatus, error: result.error }, "webhook attempt failed");
      }
      record({ event, result, at: new Date(at.getTime() + result.durationMs) });
    })()
      .catch((err) => log.error({ eventId: event.id, err: scrub(String(err)) }, "webhook delivery failed unexpectedly"))
      .finally(() => {
        inFlight.delete(p);
        pump();
      });
    inFlight.add(p);
  };
  const pump = () => {
    while (!stopping && inFlight.size < opts.concurrency && queue.length) launch(queue.shift()!);
    if (more && queue.length < opts.concurrency) wake();
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
      const room = batchSize - queue.length - inFlight.size;
      const claim = queue.length < opts.concurrency && finished.length < MAX_UNRECORDED && room > 0;
      if (claim) {
        try {
          const now = new Date();
          const events = await claimDueEvents(db, now, room, new Date(now.getTime() + leaseMs));
          queue.push(...events);
          more = events.length === room;
          failures = 0;
          pump();
        } catch (err) {
          failures += 1;
          if (stopping) break;
          log.error({ err: scrub(String(err)) }, "webhook claim failed");
          await sleep(Math.min(30_000, opts.pollMs * 2 ** failures));
          continue;
        }
      }
      if (!claim || !more) await sleep(opts.pollMs);
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
      // Unstarted claims go back at once (another process may take them while this one drains).
      await releaseClaims(db, queue.splice(0)).catch((err) => log.warn({ err: scrub(String(err)) }, "webhook claims could not be given back"));
      await Promise.allSettled([...inFlight]);
      while (flushing) await flushing;
    },
  };
}
