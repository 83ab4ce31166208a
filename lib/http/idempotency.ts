import { and, eq, lt } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { ServiceError } from "@/lib/services/errors";
import type { ServiceContext } from "@/lib/services/context";
import { json } from "./envelope";

const TTL_MS = 24 * 60 * 60 * 1000;

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
 * Idempotency-Key semantics of decisions.md: same key and body within 24 h replays the first
 * response; a different body is a 409; a concurrent request with the key while the first is still
 * running is a 409 (the primary key makes exactly one of them the owner). A 5xx is not remembered,
 * so the client may retry it.
 */
export async function withIdempotency(
  req: Request,
  ctx: ServiceContext,
  body: unknown,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = req.headers.get("idempotency-key")?.trim();
  if (!key) return run();
  if (key.length > 255) throw new ServiceError("validation_error", "Idempotency-Key must be at most 255 characters.");
  const scope = `${req.method} ${new URL(req.url).pathname}`;
  const requestHash = sha256Hex(canonical(body ?? null));
  const db = getDb();
  const where = and(eq(idempotencyKeys.companyId, ctx.account.id), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(ctx.now.getTime() - TTL_MS))));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ companyId: ctx.account.id, scope, key, requestHash, state: "in_progress", createdAt: ctx.now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });

  if (!claimed.length) {
    const [existing] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) return withIdempotency(req, ctx, body, run); // expired and removed in between
    if (existing.requestHash !== requestHash) {
      throw new ServiceError("idempotency_conflict", "This Idempotency-Key was already used with a different request body.");
    }
    if (existing.state !== "completed") {
      throw new ServiceError("idempotency_conflict", "A request with this Idempotency-Key is still being processed.");
    }
    return json(existing.responseBody, existing.responseStatus ?? 200, { "idempotent-replayed": "true" });
  }

  let res: Response;
  try {
    res = await run();
  } catch (err) {
    await db.delete(idempotencyKeys).where(where);
    throw err;
  }
  if (res.status >= 500) {
    await db.delete(idempotencyKeys).where(where);
    return res;
  }
  const text = await res.clone().text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  await db
    .update(idempotencyKeys)
    .set({ state: "completed", responseStatus: res.status, responseBody: parsed })
    .where(where);
  return res;
}
