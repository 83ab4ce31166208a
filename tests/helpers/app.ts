/**
 * Calls the app's real route handlers by URL, as Next's router would: the file tree under app/api is
 * the routing table ([id] segments, [...path] catch-all last). Requests go through the same handler
 * kit (auth, rate limit, idempotency, error mapping) as in production.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

type Route = { file: string; pattern: RegExp; names: string[]; catchAll: boolean; specificity: number };

const APP = path.resolve(__dirname, "../../app");
let routes: Route[] | undefined;

function scan(dir: string, segments: string[], out: Route[]) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) scan(full, [...segments, entry], out);
    else if (entry === "route.ts") {
      const names: string[] = [];
      let catchAll = false;
      const parts = segments
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => {
          const dyn = /^\[(\.\.\.)?(\w+)\]$/.exec(s);
          if (!dyn) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(dyn[2]);
          if (dyn[1]) {
            catchAll = true;
            return "(.+)";
          }
          return "([^/]+)";
        });
      out.push({
        file: full,
        pattern: new RegExp(`^/${parts.join("/")}/?$`),
        names,
        catchAll,
        specificity: segments.filter((s) => !s.startsWith("[")).length * 10 - (catchAll ? 100 : 0),
      });
    }
  }
}

function table(): Route[] {
  if (!routes) {
    routes = [];
    scan(APP, [], routes);
    routes.sort((a, b) => b.specificity - a.specificity);
  }
  return routes;
}

export type CallOptions = {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** secret key (Basic base64("sk:")) or a full Authorization header value */
  auth?: string;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

export async function call(method: string, urlPath: string, opts: CallOptions = {}): Promise<CallResult> {
  const url = new URL(urlPath, "http://localhost:3000");
  for (const r of table()) {
    const m = r.pattern.exec(url.pathname);
    if (!m) continue;
    const mod = (await import(r.file)) as Record<string, unknown>;
    const handler = mod[method] as ((req: Request, ctx: unknown) => Promise<Response>) | undefined;
    if (!handler) return { status: 405, headers: new Headers(), body: null, text: "" };
    const params: Record<string, string | string[]> = {};
    r.names.forEach((n, i) => (params[n] = r.catchAll && i === r.names.length - 1 ? m[i + 1].split("/") : decodeURIComponent(m[i + 1])));
    const headers = new Headers(opts.headers);
    if (opts.auth) {
      headers.set("authorization", opts.auth.startsWith("Basic ") || opts.auth.startsWith("Bearer ") ? opts.auth : basic(opts.auth, ""));
    }
    let body: string | undefined = opts.rawBody;
    if (body === undefined && opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const req = new Request(url, { method, headers, body });
    const res = await handler(req, { params: Promise.resolve(params) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
  throw new Error(`No route file matches ${url.pathname}`);
}

export function basic(user: string, pass?: string): string {
  return `Basic ${Buffer.from(pass === undefined ? user : `${user}:${pass}`).toString("base64")}`;
}
