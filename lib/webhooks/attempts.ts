import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { webhookAttempts, webhookEvents } from "@/lib/db/schema";
import { decrypt } from "@/lib/crypto";
import { scrub } from "@/lib/logger";
import type { OutboxEvent } from "./claim";
import { postJson, type PostResult } from "./http-post";
import { notificationBody } from "./payloads";
import { signedHeaders } from "./signing";
import { resolveDeliveryTarget } from "./ssrf";

/**
 * One attempt of an event (check, sign, POST) and the writing of attempts' results: shared by the
 * dispatcher's loop and the manual redelivery.
 */

// Decrypted webhook secrets by their ciphertext: a rotation changes the ciphertext, so the cache
// can never serve a stale secret.
const secretCache = new Map<string, string>();

export function webhookSecretOf(enc: string): string | null {
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
 * Writes attempts and their events' next state, many in one statement (one commit for a whole
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
  // How many automatic attempts each failed event has had (this one included) picks the next delay.
  // The events are leased by this process, so no other automatic attempt can be added meanwhile.
  const retrying = items.filter((i) => !opts.manual && !i.result.success && i.event.deliveryState === "pending").map((i) => i.event.id);
  const automatic = new Map<number, number>(retrying.map((id) => [id, 1]));
  if (retrying.length) {
    const rows = await db
      .select({ eventId: webhookAttempts.eventId, n: count() })
      .from(webhookAttempts)
      .where(and(inArray(webhookAttempts.eventId, retrying), eq(webhookAttempts.manual, false)))
      .groupBy(webhookAttempts.eventId);
    for (const r of rows) automatic.set(r.eventId, r.n + 1);
  }
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
    return {
      id: event.id,
      n: event.attempts + 1,
      url: event.url ?? "",
      status: result.httpStatus,
      ms: result.durationMs,
      ok: result.success,
      error: result.error ? scrub(result.error).slice(0, 1000) : null,
      excerpt: result.responseExcerpt,
      lease: event.lockedUntil,
      state,
      next,
      at,
    };
  });
  // One statement (atomic on its own) for the whole batch, its rows in one JSON parameter: the
  // attempts are inserted and the events moved on together; `is not distinct from` fences each
  // event by the lease it was claimed with.
  const result = await db.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
        id bigint, n integer, url text, status integer, ms integer, ok boolean, error text, excerpt text,
        lease timestamptz, state text, next timestamptz, at timestamptz)
    ), attempts as (
      insert into ${webhookAttempts} (event_id, attempt_number, manual, url, http_status, duration_ms, success, error, response_excerpt, created_at)
      select id, n, ${opts.manual}, url, status, ms, ok, error, excerpt, at from v
    )
    update ${webhookEvents} as e
    set delivery_state = v.state, next_attempt_at = v.next, attempts = e.attempts + 1, last_attempt_at = v.at, locked_until = null
    from v
    where e.id = v.id and e.locked_until is not distinct from v.lease
    returning e.id`);
  const updatedRows = (Array.isArray(result) ? result : (result as unknown as { rows: { id: unknown }[] }).rows) as { id: unknown }[];
  const updated = new Set(updatedRows.map((r) => Number(r.id)));
  return items.map((i) => i.event.id).filter((id) => !updated.has(id));
}
