import { randomUUID } from "node:crypto";
import { ZodError } from "zod";
import { ensureDatabase, type Tx } from "@/lib/db/client";
import { getLogger, pathForLog, scrub } from "@/lib/logger";
import { safeEqual } from "@/lib/crypto";
import type { ServiceContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { parseBasicAuth } from "./basic-auth";
import { readJson, requireJsonObject, zodFieldErrors } from "./body";
import { errorResponse } from "./errors";
import { authenticateSecretKey, type ReservableId } from "./authenticate";
import { countInvalidKey, RateLimitedError, refuseAddressGuessingKeys } from "./public-limits";
import { IdempotencyKeyBusyError, withIdempotency } from "./idempotency";
import { dialectOf } from "./dialect";

// Next passes { params: Promise<...> } as the second argument of a route handler.
type RouteArgs = { params: Promise<Record<string, string | string[] | undefined>> };
type Params = Record<string, string>;

export type PublicContext = { requestId: string; now: Date; params: Params; body: unknown; url: URL };
export type ApiContext<P = undefined> = ServiceContext & {
  /** What the route's `prepare` made before any transaction (undefined when it had nothing to do). */
  prepared?: P;
  params: Params;
  body: unknown;
  url: URL;
  /**
   * On an idempotent route called with an Idempotency-Key: the database transaction that records the
   * key. Pass it to the verb, so that the operation, its answer and the key's record commit together.
   */
  tx?: Tx;
  /**
   * Work that must run only once the request's writes have committed, outside any transaction (a call
   * to a PSP): it runs after a 2xx answer has committed, and the answer it returns (or the 4xx of a
   * ServiceError it throws) becomes the request's answer, and the Idempotency-Key's record. If it fails
   * otherwise, the committed answer stands. One per request.
   */
  afterCommit: (task: () => Promise<Response>) => void;
};

type Options<P> = {
  /** Honour the Idempotency-Key header (POSTs that create or move money). */
  idempotent?: boolean;
  /**
   * Work that must run before any database transaction opens (a call to a PSP that creates
   * something there: inside a transaction it would hold it open for the length of an HTTPS call, and
   * on the embedded database every other request would wait). Returns that work, or null when the
   * request needs none (decided cheaply, nothing read). It runs after authentication and, with an
   * Idempotency-Key, only when the key has no answer to replay; its result reaches the handler as
   * `ctx.prepared`. Its errors are answered as any other, and are not remembered with the key.
   */
  prepare?: (ctx: ApiContext) => (() => Promise<P | void>) | null;
  /**
   * Which id the request (by its body) will need before its writing statement, if any (a PIX charge's
   * transaction id, a cash-out's id): the authenticating statement then takes it
   * (lib/http/authenticate.ts), one round trip fewer. The body is then read before the key is checked;
   * an unreadable body still answers after the key's 401 or 429, as on every other route.
   */
  reservesId?: (body: unknown) => ReservableId | null;
};

function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._:-]{8,100}$/.test(given) ? given : randomUUID();
}

async function paramsOf(args: RouteArgs | undefined): Promise<Params> {
  const raw = (await args?.params) ?? {};
  const out: Params = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  return out;
}

function toResponse(err: unknown, requestId: string): Response {
  if (err instanceof ServiceError) {
    // Worth retrying, after Retry-After seconds: a rate limit, and a key whose first request still runs.
    const retryAfter = err instanceof RateLimitedError || err instanceof IdempotencyKeyBusyError ? err.retryAfterSeconds : null;
    const headers = retryAfter === null ? undefined : { "retry-after": String(retryAfter) };
    return errorResponse(err.code, err.message, { errors: err.errors, requestId, headers });
  }
  if (err instanceof ZodError) {
    return errorResponse("validation_error", "The request is invalid.", { errors: zodFieldErrors(err), requestId });
  }
  getLogger().error({ requestId, err: scrub(err instanceof Error ? (err.stack ?? err.message) : String(err)) }, "unhandled error");
  return errorResponse("internal_error", `Something went wrong on our side. Quote request id ${requestId} to support.`, {
    requestId,
  });
}

async function run(req: Request, requestId: string, fn: () => Promise<Response>): Promise<Response> {
  const started = performance.now();
  let res: Response;
  try {
    res = await fn();
  } catch (err) {
    res = toResponse(err, requestId);
  }
  res.headers.set("x-request-id", requestId);
  // API answers are data, never a page: no MIME sniffing, and not kept by browsers or proxies
  // (they carry account data) unless a route says otherwise (the reference, the browser script).
  res.headers.set("x-content-type-options", "nosniff");
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  const url = new URL(req.url);
  getLogger().info(
    { requestId, method: req.method, path: pathForLog(url.pathname), status: res.status, ms: Math.round(performance.now() - started) },
    "request",
  );
  return res;
}

async function bodyOf(req: Request): Promise<{ value: unknown; text: string }> {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "DELETE") return { value: undefined, text: "" };
  const body = await readJson(req);
  requireJsonObject(body.value);
  return body;
}

/** Why credentials without one usable secret key are refused, in words that fit what was sent. */
function missingSecretKey(creds: { publicKey: string | null; secretKeys: number }): string {
  if (creds.secretKeys > 1) return "Send one secret key (sk_...): the credentials hold two, and a second secret key is never a password.";
  if (creds.publicKey) return "A secret key (sk_...) is required; a public key alone is only for card tokenization.";
  return "A secret key (sk_...) is required: the credentials hold none.";
}

/**
 * Static answers (the browser script): no database, no key; the request id, nosniff and the log line
 * every API answer has. The route's own Cache-Control stands.
 */
export function withStatic(handler: (req: Request) => Response | Promise<Response>) {
  return async (req: Request): Promise<Response> => run(req, requestIdOf(req), async () => handler(req));
}

/** Routes that need no key (health, card tokenization with its own publicKey check). */
export function withPublic(handler: (req: Request, ctx: PublicContext) => Promise<Response>) {
  return async (req: Request, args: RouteArgs): Promise<Response> => {
    const requestId = requestIdOf(req);
    return run(req, requestId, async () => {
      await ensureDatabase();
      const params = await paramsOf(args);
      return handler(req, { requestId, now: new Date(), params, body: undefined, url: new URL(req.url) });
    });
  };
}

/** Routes authenticated with the secret key (HTTP Basic in every form of docs/api.md, Authentication, or Bearer). */
export function withApiKey<P = undefined>(handler: (req: Request, ctx: ApiContext<P>) => Promise<Response>, options: Options<P> = {}) {
  return async (req: Request, args: RouteArgs): Promise<Response> => {
    const requestId = requestIdOf(req);
    return run(req, requestId, async () => {
      const creds = parseBasicAuth(req.headers.get("authorization"));
      if (!creds) {
        throw new ServiceError("unauthorized", "Authentication required: send HTTP Basic (or Bearer) with your secret key (sk_...).");
      }
      await ensureDatabase();
      if (!creds.secretKey) {
        // An address that sent too many invalid credentials is refused before anything else.
        await refuseAddressGuessingKeys(req);
        await countInvalidKey(req);
        throw new ServiceError("unauthorized", missingSecretKey(creds));
      }
      const early = options.reservesId ? await bodyOf(req).then((b) => ({ body: b }), (error: unknown) => ({ error })) : null;
      const reserve = early !== null && "body" in early ? (options.reservesId!(early.body.value) ?? undefined) : undefined;
      // One statement: the address check (before the key counts), the lookup, the key's rate limit
      // (and, for a PIX charge or a cash-out, its id).
      const auth = await authenticateSecretKey(req, creds.secretKey, { reserveId: reserve });
      if (auth.addressBlockedSeconds !== null) throw new RateLimitedError(auth.addressBlockedSeconds, "requests with invalid credentials from this address");
      const account = auth.account;
      if (!account || (creds.publicKey !== null && !safeEqual(creds.publicKey, account.publicKey))) {
        await countInvalidKey(req);
        throw new ServiceError("unauthorized", "Invalid API credentials.");
      }
      const wait = auth.rateLimitedSeconds;
      if (wait !== null) {
        return errorResponse("rate_limited", `Too many requests: retry after ${wait} second(s).`, {
          requestId,
          headers: { "retry-after": String(wait) },
        });
      }
      if (early && "error" in early) throw early.error;
      const { value } = early && "body" in early ? early.body : await bodyOf(req);
      let followUp: (() => Promise<Response>) | undefined;
      const ctx: ApiContext = {
        afterCommit: (task) => {
          followUp = task;
        },
        account,
        actor: "api",
        requestId,
        now: new Date(),
        params: await paramsOf(args),
        body: value,
        url: new URL(req.url),
        dialect: dialectOf(req.url),
        pspProcessor: auth.pspProcessor,
        ...(auth.reservedId === null ? {} : reserve === "cash_outs" ? { reservedCashOutId: auth.reservedId } : { reservedTransactionId: auth.reservedId }),
      };
      const work = options.prepare?.(ctx) ?? null;
      let prepared: P | undefined;
      const beforeTransaction = work
        ? async () => {
            prepared = (await work()) as P | undefined;
          }
        : undefined;
      const call = async (tx?: Tx) => {
        try {
          return await handler(req, { ...ctx, ...(tx ? { tx } : {}), prepared });
        } catch (err) {
          followUp = undefined; // nothing of this request committed
          return toResponse(err, requestId);
        }
      };
      const afterCommit = async (): Promise<Response | null> => {
        const task = followUp;
        followUp = undefined;
        if (!task) return null;
        try {
          return await task();
        } catch (err) {
          const answer = toResponse(err, requestId);
          return answer.status >= 500 ? null : answer;
        }
      };
      if (options.idempotent) return withIdempotency(req, ctx, value, call, afterCommit, beforeTransaction);
      await beforeTransaction?.();
      const first = await call();
      return (first.ok && (await afterCommit())) || first;
    });
  };
}
