import dc from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { randomUUID } from "node:crypto";
import { errorBody } from "./errors";
import { PEER_HEADER } from "./client-address";
import { allowedMethodsOf } from "./api-routes";

/**
 * Hooks the Node HTTP server before Next sees a request (instrumentation -> lib/server-start.ts):
 *
 * - writes the connection's peer address into PEER_HEADER (replacing anything the client sent),
 *   which lib/http/client-address.ts reads: Next gives route handlers and server actions no socket;
 * - answers a known API path asked with a method its route does not take (POST /api/v1/balance) with
 *   405, the route's Allow and the one error body (api-routes.ts), where Next sends a bare 405;
 * - answers methods Next cannot serve with 405 and an Allow header: TRACE (which the Fetch API
 *   refuses to build a Request for, a 500 inside Next) and unknown ones (a bare 400 from Next, or
 *   from Node's parser for names it does not know): on a known API path with that path's own Allow,
 *   elsewhere with the server's methods. The server is hooked at its first request: a connection's
 *   very first bytes before any request was served still get Node's own 400;
 * - serves an API path with a trailing slash as the path without it (`/api/v1/transactions/` is
 *   `/api/v1/transactions`, query kept): Next would answer it with a 308 and a plain-text body, which a
 *   client that does not follow redirects on a POST cannot read. Done here, before Next routes the
 *   request, so that pages keep Next's own redirect and the API's hot path pays one `endsWith`;
 * - serves a path with a malformed percent-escape (`%FF`, `%C3` alone: not UTF-8; `%ZZ`: not hex) as
 *   the path that names those characters literally (`/api/v1/transactions/%FF` reaches the app as
 *   `/api/v1/transactions/%25FF`, whose id reads `%FF`). Next decodes a dynamic segment before any of
 *   our code runs and answered such a path with a bare `500 Internal Server Error` in plain text, with
 *   no request id and no log line; read literally, the path gets what any other id that names nothing
 *   gets: the route's 404 `not_found` (after its 401 without credentials) in the one error body, with
 *   X-Request-Id and the request logged, or the hosted checkout's "Pagamento não encontrado" page.
 *   Only the segments that do not decode change; the others (`%C3%A3`, `%2F`) are left as sent.
 *
 * `http.server.request.start` is published synchronously just before the server emits `request`.
 */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);

const g = globalThis as unknown as { __araraRequestGuard?: { servers: WeakSet<Server> } };

type Route = { path: string; allow: string[] };

/** The API route a request target names, with the methods it takes; null for any other path. */
function routeOf(target: string): Route | null {
  const path = target.split("?")[0];
  const allow = allowedMethodsOf(path);
  return allow ? { path: path.slice(0, 200), allow } : null;
}

/**
 * The 405's Allow and message: a known API path's own methods, never ones it does not take; elsewhere
 * the server's methods, without promising any of them for the path asked.
 */
function refusal(rawMethod: string, route: Route | null): { allow: string[]; message: string } {
  const method = rawMethod.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 20);
  if (route) return { allow: route.allow, message: `${route.path} does not take ${method}; use ${route.allow.join(", ")}.` };
  return {
    allow: [...ALLOWED_METHODS],
    message: `HTTP method ${method || "(unreadable)"} is not supported. This server serves ${ALLOWED_METHODS.join(", ")}, each path only some of them.`,
  };
}

/** 405 with the one error body: `route` when the path is an API route, whose methods Allow lists. */
function methodNotAllowed(req: IncomingMessage, res: ServerResponse, route: Route | null): void {
  const requestId = randomUUID();
  const { allow, message } = refusal(req.method ?? "", route);
  const body = JSON.stringify(errorBody("method_not_allowed", message, undefined, requestId));
  res.writeHead(405, {
    allow: allow.join(", "),
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": requestId,
  });
  // A TRACE must not echo the request back, and a body it may carry is not read.
  res.end(body);
  req.resume();
}

/** The method and target of a request line in the bytes Node's parser gave up on, if readable. */
function requestLineOf(raw: unknown): { method: string; target: string } | null {
  if (!Buffer.isBuffer(raw)) return null;
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,40}) (\S{1,2048}) HTTP\/\d\.\d\r?\n/.exec(raw.subarray(0, 2100).toString("latin1"));
  return m ? { method: m[1], target: m[2] } : null;
}

/**
 * Node's HTTP parser refuses methods it does not know (FOO) itself, with a bare 400, before any
 * request exists: those become the same 405 (read from the bytes it was given, so a known API path
 * gets its own Allow). Other parse errors keep Node's own answers.
 */
function onClientError(server: Server, others: ((err: Error, socket: Duplex) => void)[]) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex) => {
    if (err.code === "HPE_INVALID_METHOD" && socket.writable) {
      const line = requestLineOf(err.rawPacket);
      const { allow, message } = refusal(line?.method ?? "", line ? routeOf(line.target) : null);
      // A request id in the body and the header, as every other answer of the API has.
      const requestId = randomUUID();
      const body = JSON.stringify(errorBody("method_not_allowed", message, undefined, requestId));
      socket.end(
        `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allow.join(", ")}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    if (others.length) {
      for (const l of others) l.call(server, err, socket);
      return;
    }
    if (!socket.writable) return socket.destroy();
    const status =
      err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : err.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  };
}

/** Wraps a server's `request` listeners once, so that a refused method never reaches Next. */
function guardServer(server: Server): void {
  const errorListeners = server.listeners("clientError") as ((err: Error, socket: Duplex) => void)[];
  server.removeAllListeners("clientError");
  server.on("clientError", onClientError(server, errorListeners));
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const route = routeOf(req.url ?? "");
    if (!ALLOWED.has(req.method ?? "")) return methodNotAllowed(req, res, route);
    // A known API path asked with a method its route does not take: Next's answer would be a bare 405.
    if (route && !route.allow.includes(req.method!)) return methodNotAllowed(req, res, route);
    for (const l of listeners) l.call(server, req, res);
  });
}

const API_PATH = /^\/(?:api\/)?v1\/[^/]/;

/**
 * The request target without the trailing slashes of its path when it is an API path
 * (`/api/v1/...`, `/v1/...`), query kept; null when there is nothing to change.
 */
export function apiTargetWithoutTrailingSlash(target: string): string | null {
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  if (!path.endsWith("/") || !API_PATH.test(path)) return null;
  return path.replace(/\/+$/, "") + (q === -1 ? "" : target.slice(q));
}

/** A path segment that decodeURIComponent (as Next decodes a dynamic segment) refuses. */
function undecodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}

/**
 * The request target with every `%` of a path segment that does not decode written as `%25`, so that
 * the segment names its characters literally; query kept. Null when there is nothing to change (the
 * hot path: a path without `%` pays one `indexOf`).
 */
export function targetWithLiteralBadEscapes(target: string): string | null {
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  if (!path.includes("%")) return null;
  const segments = path.split("/");
  let changed = false;
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].includes("%") && undecodable(segments[i])) {
      segments[i] = segments[i].replace(/%/g, "%25");
      changed = true;
    }
  }
  return changed ? segments.join("/") + (q === -1 ? "" : target.slice(q)) : null;
}

export function installRequestGuard(): void {
  if (g.__araraRequestGuard) return;
  const state = (g.__araraRequestGuard = { servers: new WeakSet<Server>() });
  dc.subscribe("http.server.request.start", (message) => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
    const readable = targetWithLiteralBadEscapes(request.url ?? "");
    if (readable !== null) request.url = readable;
    const target = apiTargetWithoutTrailingSlash(request.url ?? "");
    if (target !== null) request.url = target;
    if (!state.servers.has(server)) {
      state.servers.add(server);
      guardServer(server);
    }
  });
}
