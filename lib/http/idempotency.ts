import { createHash } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { brandErrorClass, ServiceError } from "@/lib/services/errors";
import { getLogger, scrub } from "@/lib/logger";
import type { ServiceContext } from "@/lib/services/context";

const TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

/** An answer as it was sent: status, content type and the body's exact text. */
export type Answer = { status: number; contentType: string; body: string };

export type IdempotentOperation = {
  companyId: number;
  /** What the key is for: method and canonical route ("POST /api/v1/transactions/7/refund"), or a form. */
  scope: string;
  key: string;
  /** The request; the same key with another request is refused (409). */
  request: unknown;
  now: Date;
  /**
   * A request with this key still running: the API answers 409 at once (decisions: "one runs, the
   * other gets 409"); a dashboard form waits for it and replays its answer (a double submit).
   */
  whenBusy: "conflict" | "wait";
};

/** JSON with sorted keys, so the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * The route a key is scoped to: "/api/v1/transactions/00123/refund/" and "/api/v1/transactions/123/refund"
 * name one resource (ids are read as numbers), so they are one scope.
 */
export function canonicalRoute(pathname: string): string {
  const segments = pathname
    .split("/")
    .filter((s) => s !== "")
    .map((s) => {
      let d = s;
      try {
        d = decodeURIComponent(s);
      } catch {
        /* not percent-encoded text: kept as sent */
      }
      return /^\d+$/.test(d) ? d.replace(/^0+(?=\d)/, "") : d;
    });
  return `/${segments.join("/")}`;
}

export function checkIdempotencyKey(key: string): void {
  if (key.length > MAX_KEY_LENGTH) {
    throw new ServiceError("validation_error", `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters.`, [
      { field: "Idempotency-Key", message: `must be at most ${MAX_KEY_LENGTH} characters` },
    ]);
  }
}

/**
 * The same route in the API's other dialect: "POST /v1/cashOut/request" and "POST
 * /api/v1/cashOut/request" run the very same operation (app/v1/[...path]/route.ts calls the /api/v1
 * route), so one key must not run it once on each. Each dialect keeps its own scope (its answers are in
 * its own shape, and records written before keys were shared stay where they are); a key already
 * answered on the twin is refused with 409, and both take one lock. null: a scope with no twin (a
 * dashboard form, a path outside the API).
 */
export function dialectTwinOf(scope: string): string | null {
  const m = /^(\S+) \/(api\/v1|v1)(\/.*)$/.exec(scope);
  if (!m) return null;
  return `${m[1]} /${m[2] === "v1" ? "api/v1" : "v1"}${m[3]}`;
}

/** A signed 64-bit number naming the key, for PostgreSQL's advisory locks: one for a scope and its twin. */
/**
 * The 409 of a key whose first request is still running (PostgreSQL): the one `idempotency_conflict`
 * worth retrying, so it alone carries `Retry-After: 1` (lib/http/handler.ts); a key used with another
 * body, or on the other dialect's path, is a client's mistake that no retry fixes, and has none.
 */
export class IdempotencyKeyBusyError extends ServiceError {
  readonly retryAfterSeconds = 1;
  constructor() {
    super("idempotency_conflict", "A request with this Idempotency-Key is still being processed.");
  }
}
brandErrorClass(IdempotencyKeyBusyError, "IdempotencyKeyBusyError");

function lockIdOf(op: IdempotentOperation): string {
  const twin = dialectTwinOf(op.scope);
  const scope = twin && twin < op.scope ? twin : op.scope;
  const digest = createHash("sha256").update(`${op.companyId}\n${scope}\n${op.key}`).digest();
  return digest.readBigInt64BE(0).toString();
}

async function firstRow(tx: Tx, query: SQL): Promise<Record<string, unknown> | undefined> {
  // postgres.js returns the rows as an array, PGlite as { rows }.
  const r = (await tx.execute(query)) as unknown;
  const rows = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, unknown>[];
  return rows[0];
}

// Thrown inside the transaction to roll it back when the answer is a 5xx: a failure on our side is
// not remembered, so the client's retry runs again.
class NotRemembered extends Error {
  constructor(readonly answer: Answer) {
    super("5xx answers are not remembered");
  }
}

type KeyRecord = typeof idempotencyKeys.$inferSelect;

/**
 * What a key's record means for a request: its answer to replay, "stale" (expired, or a claim left by
 * a version that claimed keys outside the operation's transaction) or null (no record). The same key
 * with another request is a 409.
 */
function recordedAnswer(existing: KeyRecord | undefined, requestHash: string, now: Date): Answer | "stale" | null {
  if (!existing) return null;
  if (existing.createdAt.getTime() <= now.getTime() - TTL_MS || existing.responseStatus === null) return "stale";
  if (existing.requestHash !== requestHash) {
    throw new ServiceError("idempotency_conflict", "This Idempotency-Key was already used with a different request.");
  }
  return {
    status: existing.responseStatus,
    contentType: existing.responseContentType ?? "application/json; charset=utf-8",
    body: existing.responseBody ?? "",
  };
}

const whereKey = (op: IdempotentOperation, scope = op.scope) =>
  and(eq(idempotencyKeys.companyId, op.companyId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, op.key));

/**
 * The key's record on the operation's route, and on its twin in the other dialect, in one read. A key
 * already answered on the twin is refused (409): retried on the other path, it would run again.
 */
async function recordsOf(q: Pick<Tx, "select">, op: IdempotentOperation): Promise<KeyRecord | undefined> {
  const twin = dialectTwinOf(op.scope);
  if (!twin) return (await q.select().from(idempotencyKeys).where(whereKey(op)).limit(1))[0];
  const rows = await q
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.companyId, op.companyId), inArray(idempotencyKeys.scope, [op.scope, twin]), eq(idempotencyKeys.key, op.key)));
  const own = rows.find((r) => r.scope === op.scope);
  const other = rows.find((r) => r.scope === twin);
  const live = (r: KeyRecord | undefined) => r && r.responseStatus !== null && r.createdAt.getTime() > op.now.getTime() - TTL_MS;
  if (live(other) && !live(own)) {
    throw new ServiceError(
      "idempotency_conflict",
      `This Idempotency-Key was already used for ${twin}: a key names one request on one path. Retry on that path, or use a new key.`,
    );
  }
  return own;
}

/**
 * The answer already recorded for a key, read with no transaction open (null: none yet). For work an
 * operation does before its transaction (a call to a PSP): a retry of a request that committed is
 * replayed without doing it again. runIdempotent decides again under the key's lock.
 */
export async function recordedAnswerOf(op: IdempotentOperation): Promise<Answer | null> {
  checkIdempotencyKey(op.key);
  const existing = await recordsOf(getDb(), op);
  const recorded = recordedAnswer(existing, sha256Hex(canonical(op.request ?? null)), op.now);
  return recorded === "stale" ? null : recorded;
}

/**
 * Runs an operation at most once per (account, scope, key) within 24 h, in ONE database transaction
 * with the key's record:
 *
 * 1. An advisory lock on the key, held to the end of the transaction, decides between two requests
 *    with one key: on PostgreSQL the second finds it taken and answers 409 at once (or, for
 *    `whenBusy: "wait"`, waits and then replays). PGlite runs one transaction at a time, so there
 *    the second simply starts after the first committed and replays it.
 * 2. A committed record for the key is replayed (byte for byte), or refused with 409 if the request
 *    differs.
 * 3. Otherwise `run` gets the transaction: the verb does its writes in a savepoint of it (a 4xx rolls
 *    back the verb's writes, and its error answer is still recorded), then the answer is recorded,
 *    and all of it commits together. A 5xx rolls everything back and is not remembered.
 *
 * So no claim outlives its request: a process killed mid-operation leaves nothing (PostgreSQL aborts
 * its transaction and frees the lock), and the retry runs once; a retry after a commit replays.
 *
 * 4. `afterCommit`, when given, runs once the operation's 2xx answer has committed, with no
 *    transaction open: the part of an operation that must never run inside one (a call to a PSP, whose
 *    effect a rollback could not undo). An answer it returns replaces the first one, in the key's
 *    record too; a retry before that gets the first answer, which was true when it committed.
 */
export async function runIdempotent(
  op: IdempotentOperation,
  run: (tx: Tx) => Promise<Answer>,
  afterCommit?: () => Promise<Answer | null>,
): Promise<{ answer: Answer; replayed: boolean }> {
  checkIdempotencyKey(op.key);
  const requestHash = sha256Hex(canonical(op.request ?? null));
  const where = whereKey(op);
  const done = await runOnce(op, requestHash, where, run);
  if (done.replayed || !afterCommit || done.answer.status < 200 || done.answer.status >= 300) return done;
  const final = await afterCommit();
  if (!final) return done;
  try {
    await getDb()
      .update(idempotencyKeys)
      .set({ responseStatus: final.status, responseContentType: final.contentType, responseBody: final.body })
      .where(and(where, eq(idempotencyKeys.requestHash, requestHash)));
  } catch (err) {
    // The operation and its first answer are committed: a retry replays that answer, still true when
    // it committed. This request gets the newer one, not a 5xx that would say nothing remains.
    getLogger().error({ scope: op.scope, err: scrub(err instanceof Error ? err.message : String(err)) }, "idempotency: the answer after the commit was not recorded with the key");
  }
  return { answer: final, replayed: false };
}

async function runOnce(
  op: IdempotentOperation,
  requestHash: string,
  where: SQL | undefined,
  run: (tx: Tx) => Promise<Answer>,
): Promise<{ answer: Answer; replayed: boolean }> {
  try {
    return await getDb().transaction(async (tx) => {
      const lockId = lockIdOf(op);
      if (op.whenBusy === "wait") {
        await tx.execute(sql`select pg_advisory_xact_lock(${lockId}::bigint)`);
      } else {
        const row = await firstRow(tx, sql`select pg_try_advisory_xact_lock(${lockId}::bigint) as locked`);
        if (!row?.locked) {
          throw new IdempotencyKeyBusyError();
        }
      }
      const existing = await recordsOf(tx, op);
      const recorded = recordedAnswer(existing, requestHash, op.now);
      if (recorded === "stale") await tx.delete(idempotencyKeys).where(where);
      else if (recorded) return { answer: recorded, replayed: true };

      const answer = await run(tx);
      if (answer.status >= 500) throw new NotRemembered(answer);
      await tx.insert(idempotencyKeys).values({
        companyId: op.companyId,
        scope: op.scope,
        key: op.key,
        requestHash,
        responseStatus: answer.status,
        responseContentType: answer.contentType,
        responseBody: answer.body,
        createdAt: op.now,
      });
      return { answer, replayed: false };
    });
  } catch (err) {
    if (err instanceof NotRemembered) return { answer: err.answer, replayed: false };
    throw err;
  }
}

/**
 * The Idempotency-Key header on an API route (`withApiKey(..., { idempotent: true })`). Without the
 * header the handler runs as usual, with no outer transaction. With it, the handler gets the
 * transaction of `runIdempotent` and must pass it to its verb, so that the money, the answer and the
 * key's record commit together. Replays carry `idempotent-replayed: true`. `afterCommit` (with or
 * without the header) runs after a 2xx has committed; an answer it returns is the request's answer.
 * `beforeTransaction` runs before the transaction opens, unless the key already has an answer to
 * replay (what it does is then not remembered: a retry with the key does it again).
 */
export async function withIdempotency(
  req: Request,
  ctx: ServiceContext,
  body: unknown,
  handle: (tx: Tx | undefined) => Promise<Response>,
  afterCommit: () => Promise<Response | null> = async () => null,
  beforeTransaction?: () => Promise<void>,
): Promise<Response> {
  const key = req.headers.get("idempotency-key")?.trim();
  if (!key) {
    await beforeTransaction?.();
    const first = await handle(undefined);
    return (first.ok && (await afterCommit())) || first;
  }
  let fresh: Response | undefined;
  let final: Response | undefined;
  const op: IdempotentOperation = {
    companyId: ctx.account.id,
    scope: `${req.method} ${canonicalRoute(new URL(req.url).pathname)}`,
    key,
    request: body ?? null,
    now: ctx.now,
    whenBusy: "conflict",
  };
  if (beforeTransaction) {
    const recorded = await recordedAnswerOf(op);
    if (recorded) return replayOf(recorded);
    await beforeTransaction();
  }
  const { answer, replayed } = await runIdempotent(
    op,
    async (tx) => {
      fresh = await handle(tx);
      return { status: fresh.status, contentType: fresh.headers.get("content-type") ?? "", body: await fresh.text() };
    },
    async () => {
      const next = await afterCommit();
      if (!next) return null;
      final = next;
      return { status: next.status, contentType: next.headers.get("content-type") ?? "", body: await next.clone().text() };
    },
  );
  if (final) return final;
  if (!replayed && fresh) return new Response(answer.body, { status: answer.status, headers: fresh.headers });
  return replayOf(answer);
}

function replayOf(answer: Answer): Response {
  const headers: Record<string, string> = { "idempotent-replayed": "true" };
  if (answer.contentType) headers["content-type"] = answer.contentType;
  return new Response(answer.body, { status: answer.status, headers });
}
