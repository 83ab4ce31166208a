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
 *   from Node's parser for names it does not know). The server is hooked at its first request: a
 *   connection's very first bytes before any request was served still get Node's own 400.
 *
 * `http.server.request.start` is published synchronously just before the server emits `request`.
 */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);

const g = globalThis as unknown as { __araraRequestGuard?: { servers: WeakSet<Server> } };

/** 405 with the one error body: `route` when the path is an API route that does not take the method. */
function methodNotAllowed(req: IncomingMessage, res: ServerResponse, route?: { path: string; allow: string[] }): void {
  const requestId = randomUUID();
  const method = (req.method ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 20);
  const allow = route?.allow ?? [...ALLOWED_METHODS];
  const message = route
    ? `${route.path} does not take ${method}; use ${allow.join(", ")}.`
    : `HTTP method ${method} is not supported; use one of ${allow.join(", ")}.`;
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

/**
 * Node's HTTP parser refuses methods it does not know (FOO) itself, with a bare 400, before any
 * request exists: those become the same 405. Other parse errors keep Node's own answers.
 */
function onClientError(server: Server, others: ((err: Error, socket: Duplex) => void)[]) {
  return (err: Error & { code?: string }, socket: Duplex) => {
    if (err.code === "HPE_INVALID_METHOD" && socket.writable) {
      const body = JSON.stringify(
        errorBody("method_not_allowed", `This HTTP method is not supported; use one of ${ALLOWED_METHODS.join(", ")}.`),
      );
      socket.end(
        `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS.join(", ")}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
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
    if (!ALLOWED.has(req.method ?? "")) return methodNotAllowed(req, res);
    // A known API path asked with a method its route does not take: Next's answer would be a bare 405.
    const path = (req.url ?? "").split("?")[0];
    const allow = allowedMethodsOf(path);
    if (allow && !allow.includes(req.method!)) return methodNotAllowed(req, res, { path: path.slice(0, 200), allow });
    for (const l of listeners) l.call(server, req, res);
  });
}

export function installRequestGuard(): void {
  if (g.__araraRequestGuard) return;
  const state = (g.__araraRequestGuard = { servers: new WeakSet<Server>() });
  dc.subscribe("http.server.request.start", (message) => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
    if (!state.servers.has(server)) {
      state.servers.add(server);
      guardServer(server);
    }
  });
}
