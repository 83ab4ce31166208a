import dc from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { errorBody } from "./errors";
import { PEER_HEADER } from "./client-address";

/**
 * Hooks the Node HTTP server before Next sees a request (instrumentation -> lib/server-start.ts):
 *
 * - writes the connection's peer address into PEER_HEADER (replacing anything the client sent),
 *   which lib/http/client-address.ts reads: Next gives route handlers and server actions no socket;
 * - answers methods Next cannot serve with 405 and an Allow header: TRACE (which the Fetch API
 *   refuses to build a Request for, a 500 inside Next) and unknown ones (a bare 400 from Next).
 *
 * `http.server.request.start` is published synchronously just before the server emits `request`.
 */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);

const g = globalThis as unknown as { __araraRequestGuard?: { servers: WeakSet<Server> } };

function methodNotAllowed(req: IncomingMessage, res: ServerResponse): void {
  const requestId = randomUUID();
  const method = (req.method ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 20);
  const body = JSON.stringify(
    errorBody("method_not_allowed", `HTTP method ${method} is not supported; use one of ${ALLOWED_METHODS.join(", ")}.`, undefined, requestId),
  );
  res.writeHead(405, {
    allow: ALLOWED_METHODS.join(", "),
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

/** Wraps a server's `request` listeners once, so that a refused method never reaches Next. */
function guardServer(server: Server): void {
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!ALLOWED.has(req.method ?? "")) return methodNotAllowed(req, res);
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
