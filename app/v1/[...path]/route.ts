/**
 * The /v1 dialect: the same API as /api/v1, where the clients of this gateway family look for it
 * (their base URL is https://<host>/v1). Each /v1 path calls the route module of its /api/v1 twin,
 * so auth, idempotency, rate limit, validation and services are the very same code; the request
 * keeps its /v1 URL, from which the handler kit knows the dialect (lib/http/dialect.ts). What this
 * file adds: the family's request forms rewritten to the contract's (lib/http/dialect-leniency.ts),
 * success bodies unwrapped from the envelope, and the few family-only paths (status, balance/available).
 */
import { parseBasicAuth } from "@/lib/http/basic-auth";
import { utf8OrNull } from "@/lib/http/body";
import { json } from "@/lib/http/envelope";
import { withApiKey, withPublic } from "@/lib/http/handler";
import { prefersJson, toV1Response } from "@/lib/http/dialect";
import { callerIp, v1CardTokenBody, v1TransactionBody } from "@/lib/http/dialect-leniency";
import { ServiceError } from "@/lib/services/errors";
import * as balance from "@/app/api/v1/balance/route";
import * as balanceStatement from "@/app/api/v1/balance/statement/route";
import * as cardToken from "@/app/api/v1/card-token/route";
import * as cashOut from "@/app/api/v1/cashOut/route";
import * as cashOutById from "@/app/api/v1/cashOut/[id]/route";
import * as cashOutRequest from "@/app/api/v1/cashOut/request/route";
import * as checkouts from "@/app/api/v1/checkouts/route";
import * as checkoutById from "@/app/api/v1/checkouts/[id]/route";
import * as company from "@/app/api/v1/company/route";
import * as health from "@/app/api/v1/health/route";
import * as js from "@/app/api/v1/js/route";
import * as openapi from "@/app/api/v1/openapi.json/route";
import * as transactions from "@/app/api/v1/transactions/route";
import * as transactionById from "@/app/api/v1/transactions/[id]/route";
import * as transactionDelivery from "@/app/api/v1/transactions/[id]/delivery/route";
import * as transactionRefund from "@/app/api/v1/transactions/[id]/refund/route";
import * as transactionTest from "@/app/api/v1/transactions/[id]/test/route";
import * as transactionWebhooks from "@/app/api/v1/transactions/[id]/webhooks/route";
import * as cashOutWebhooks from "@/app/api/v1/cashOut/[id]/webhooks/route";
import * as redeliver from "@/app/api/v1/webhooks/[eventId]/redeliver/route";
import * as skip from "@/app/api/v1/webhooks/[eventId]/skip/route";

type Params = Record<string, string | string[] | undefined>;
type RouteHandler = (req: Request, args: { params: Promise<Params> }) => Response | Promise<Response>;
type Module = Partial<Record<Method, RouteHandler>>;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** `GET /v1/status`: the family's liveness probe, without credentials. */
const status: Module = { GET: withPublic(async () => json({ status: "online" })) };

/** The /v1 paths: `:name` segments become params, as the [name] folders of app/api/v1 do. */
const ROUTES: readonly (readonly [string, Module])[] = [
  ["transactions", transactions],
  ["transactions/:id", transactionById],
  ["transactions/:id/refund", transactionRefund],
  ["transactions/:id/delivery", transactionDelivery],
  ["transactions/:id/test", transactionTest],
  ["transactions/:id/webhooks", transactionWebhooks],
  ["card-token", cardToken],
  ["balance", balance],
  ["balance/available", balance],
  ["balance/statement", balanceStatement],
  ["cashOut", cashOut],
  ["cashOut/request", cashOutRequest],
  ["cashOut/:id", cashOutById],
  ["cashOut/:id/webhooks", cashOutWebhooks],
  ["checkouts", checkouts],
  ["checkouts/:id", checkoutById],
  ["company", company],
  ["webhooks/:eventId/redeliver", redeliver],
  ["webhooks/:eventId/skip", skip],
  ["health", health],
  ["status", status],
  ["js", js],
  ["openapi.json", openapi],
];

function match(segments: string[]): { pattern: string; module: Module; params: Record<string, string> } | null {
  // Literal segments win over :params ("cashOut/request" before "cashOut/:id").
  const candidates = ROUTES.filter(([p]) => p.split("/").length === segments.length).sort(
    ([a], [b]) => a.split(":").length - b.split(":").length,
  );
  for (const [pattern, module] of candidates) {
    const params: Record<string, string> = {};
    const ok = pattern.split("/").every((part, i) => {
      if (part.startsWith(":")) {
        params[part.slice(1)] = segments[i];
        return true;
      }
      return part === segments[i];
    });
    if (ok) return { pattern, module, params };
  }
  return null;
}

const MAX_BODY = 1_000_000;

/**
 * Reads a body to rewrite it. A body over 1 MB is not read further, and a body that is not UTF-8 is
 * not decoded: either is passed on as it came, for the handler kit to refuse as it refuses any other.
 */
async function readCapped(req: Request): Promise<{ text: string } | { stream: ReadableStream<Uint8Array> }> {
  if (!req.body) return { text: "" };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_BODY) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const c of chunks) controller.enqueue(c);
        },
        async pull(controller) {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { stream };
    }
  }
  const text = utf8OrNull(Buffer.concat(chunks, size));
  // Not UTF-8: passed on as it came, for the handler kit to refuse with its 400 (a lenient decoding
  // here would hand it valid UTF-8 with U+FFFD in place of the bad bytes).
  if (text === null) return { stream: replay(chunks) };
  return { text };
}

function replay(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

/**
 * The request with its JSON body rewritten by `rewrite`. A body that is not JSON is passed on as it
 * came (the handler kit answers its 400). A rewrite that finds a bad value throws a ServiceError,
 * answered after authentication like any validation error.
 */
async function rewriteBody(req: Request, rewrite: (value: unknown) => unknown): Promise<Request | ServiceError> {
  const read = await readCapped(req);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: req.headers };
  if ("stream" in read) return new Request(req.url, { ...init, body: read.stream, duplex: "half" } as RequestInit);
  let body = read.text;
  if (body.trim() !== "") {
    try {
      const value: unknown = JSON.parse(body);
      body = JSON.stringify(rewrite(value));
    } catch (err) {
      if (err instanceof ServiceError) return err;
      /* not JSON: passed on unchanged */
    }
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return new Request(req.url, { ...init, headers, body });
}

/** A rewrite's validation error, answered by the handler kit (auth and rate limit first). */
function failAfterAuth(err: ServiceError) {
  return withApiKey(async () => {
    throw err;
  });
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function dispatch(method: Method, req: Request, args: { params: Promise<Params> }): Promise<Response> {
  const raw = (await args.params).path;
  const segments = (Array.isArray(raw) ? raw : raw ? [raw] : []).map(decoded);
  const route = match(segments);
  const handler = route?.module[method];
  if (!route || !handler) {
    const path = new URL(req.url).pathname;
    return withPublic(async () => {
      throw new ServiceError("not_found", `No API route ${method} ${path}.`);
    })(req, args);
  }
  const routeArgs = { params: Promise.resolve(route.params as Params) };

  // `Basic sk_...` with the key not base64-encoded is read by parseBasicAuth, as on /api/v1.
  let request = req;
  // A charge's body is read here only with a secret key in the header (without one the kit answers
  // 401 without reading it); the card token route is public and reads it anyway.
  const rewrites =
    method === "POST" && (route.pattern === "card-token" || (route.pattern === "transactions" && parseBasicAuth(request.headers.get("authorization"))?.secretKey));
  if (rewrites) {
    const rewrite =
      route.pattern === "transactions" ? (v: unknown) => v1TransactionBody(v, callerIp(req.headers)) : (v: unknown) => v1CardTokenBody(v);
    const rewritten = await rewriteBody(request, rewrite);
    if (rewritten instanceof ServiceError) {
      // The body was read: the kit gets the headers (credentials) with an empty body.
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      return failAfterAuth(rewritten)(new Request(req.url, { method: req.method, headers, body: "{}" }), routeArgs);
    }
    request = rewritten;
  }

  const res = await handler(request, routeArgs);
  if (route.pattern === "card-token" && method === "POST" && res.ok && prefersJson(req.headers.get("accept"))) {
    // The token as a JSON string ("ct_..."), for clients that parse every answer as JSON.
    const token = await res.text();
    const headers = new Headers(res.headers);
    headers.set("content-type", "application/json; charset=utf-8");
    headers.delete("content-length");
    return new Response(JSON.stringify(token), { status: res.status, headers });
  }
  return toV1Response(res);
}

export const GET = (req: Request, args: { params: Promise<Params> }) => dispatch("GET", req, args);
export const POST = (req: Request, args: { params: Promise<Params> }) => dispatch("POST", req, args);
export const PUT = (req: Request, args: { params: Promise<Params> }) => dispatch("PUT", req, args);
export const PATCH = (req: Request, args: { params: Promise<Params> }) => dispatch("PATCH", req, args);
export const DELETE = (req: Request, args: { params: Promise<Params> }) => dispatch("DELETE", req, args);
export const OPTIONS = (req: Request, args: { params: Promise<Params> }) => dispatch("OPTIONS", req, args);
