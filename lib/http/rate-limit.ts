import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { executePrepared } from "@/lib/db/prepared";

/**
 * Rate limits kept in the database (table rate_limit_counters), so that every process behind a
 * balancer shares one count: N instances do not give a client N times the limit. Fixed windows that
 * start at a key's first request (the count starts again at the first request after one ends), each
 * counted with one atomic upsert (all the limits of one request in one statement).
 */
export type Limit = {
  /** Names the counter: one name, one kind of thing counted. */
  name: string;
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
};

type Hit = { limit: Limit; key: string };

/** The stored key: the limit's name and a hash of the key (addresses and e-mails are not kept in clear). */
export function storedKey(limit: Limit, key: string): string {
  return `${limit.name}:${createHash("sha256").update(key).digest("base64url").slice(0, 32)}`;
}

function windowOf(limit: Limit, nowMs: number): { start: Date; end: Date } {
  return { start: new Date(nowMs), end: new Date(nowMs + limit.windowSeconds * 1000) };
}

function rowsOf(r: unknown): Record<string, unknown>[] {
  // postgres.js returns the rows as an array, PGlite as { rows }.
  return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

const secondsUntil = (end: Date, nowMs: number) => Math.max(1, Math.ceil((end.getTime() - nowMs) / 1000));

/** Dead windows are deleted now and then, by whichever request draws the short straw. */
const CLEANUP_ODDS = 1 / 500;

/**
 * Counts one request against each limit and returns the seconds to wait when any of them is now
 * over its points (the longest wait), or null when all allow it.
 */
export async function consume(hits: Hit[], nowMs = Date.now()): Promise<number | null> {
  if (!hits.length) return null;
  const db = getDb();
  const wait = await consumeIn(db, hits, nowMs);
  if (Math.random() < CLEANUP_ODDS) {
    await db.execute(sql`delete from rate_limit_counters where expires_at < now() - interval '1 minute'`).catch(() => {});
  }
  return wait;
}

/**
 * `consume`'s one atomic upsert on a given handle: inside a transaction, the counts commit or roll
 * back with it (and its rows stay locked until then). No clean-up of dead windows here.
 */
export async function consumeIn(db: Queryable, hits: Hit[], nowMs: number): Promise<number | null> {
  if (!hits.length) return null;
  const rows = hits.map(({ limit, key }) => {
    const w = windowOf(limit, nowMs);
    return sql`(${storedKey(limit, key)}, ${w.start.toISOString()}::timestamptz, 1, ${w.end.toISOString()}::timestamptz)`;
  });
  // Prepared on the server (one text per number of limits counted).
  const result = await executePrepared(db, sql`
    insert into rate_limit_counters as c (key, window_start, hits, expires_at)
    values ${sql.join(rows, sql`, `)}
    on conflict (key) do update set
      hits = case when c.expires_at > excluded.window_start then c.hits + 1 else 1 end,
      window_start = case when c.expires_at > excluded.window_start then c.window_start else excluded.window_start end,
      expires_at = case when c.expires_at > excluded.window_start then c.expires_at else excluded.expires_at end
    returning key, hits, (extract(epoch from expires_at) * 1000)::float8 as expires_ms`);
  const byKey = new Map(rowsOf(result).map((r) => [String(r.key), r]));
  let wait: number | null = null;
  for (const { limit, key } of hits) {
    const row = byKey.get(storedKey(limit, key));
    if (!row || Number(row.hits) <= limit.points) continue;
    const s = secondsUntil(new Date(Number(row.expires_ms)), nowMs);
    wait = Math.max(wait ?? 0, s);
  }
  return wait;
}

/**
 * Without counting: the seconds to wait when any of these limits has already used all its points in
 * the current window, else null.
 */
export async function blockedFor(hits: Hit[], nowMs = Date.now()): Promise<number | null> {
  if (!hits.length) return null;
  const keys = hits.map(({ limit, key }) => storedKey(limit, key));
  const result = await getDb().execute(sql`
    select key, hits, (extract(epoch from expires_at) * 1000)::float8 as expires_ms from rate_limit_counters where key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`);
  const byKey = new Map(rowsOf(result).map((r) => [String(r.key), r]));
  let wait: number | null = null;
  for (const { limit, key } of hits) {
    const row = byKey.get(storedKey(limit, key));
    if (!row) continue;
    const end = new Date(Number(row.expires_ms));
    if (end.getTime() <= nowMs || Number(row.hits) < limit.points) continue;
    wait = Math.max(wait ?? 0, secondsUntil(end, nowMs));
  }
  return wait;
}

/**
 * Gives back one point of each of these limits taken by `consume` in the current window (an attempt
 * counted before it was checked, that turned out not to be a failure). Never below zero.
 */
export async function giveBack(hits: Hit[]): Promise<void> {
  if (!hits.length) return;
  const keys = hits.map(({ limit, key }) => storedKey(limit, key));
  await getDb().execute(sql`
    update rate_limit_counters set hits = greatest(hits - 1, 0)
    where key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)}) and expires_at > now()`);
}

/** Forgets a key's count (a correct password clears its failures). */
export async function clearCount(limit: Limit, key: string): Promise<void> {
  await getDb().execute(sql`delete from rate_limit_counters where key = ${storedKey(limit, key)}`);
}

/**
 * Per secret key: RATE_LIMIT_BURST requests in any one-second window, and on average no more than
 * RATE_LIMIT_PER_SECOND over ten seconds.
 */
export function keyLimits(): { burst: Limit; sustained: Limit } {
  const env = getEnv();
  return {
    burst: { name: "api-burst", points: env.rateLimitBurst, windowSeconds: 1 },
    sustained: { name: "api-sustained", points: env.rateLimitPerSecond * 10, windowSeconds: 10 },
  };
}

/** Returns null when allowed, or the seconds to wait. */
export async function takeToken(key: string): Promise<number | null> {
  const { burst, sustained } = keyLimits();
  return consume([
    { limit: burst, key },
    { limit: sustained, key },
  ]);
}

/** For tests: forget all counters. */
export async function resetRateLimits(): Promise<void> {
  await getDb().execute(sql`delete from rate_limit_counters`);
}
