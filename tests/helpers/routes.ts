/**
 * The API's routing table as the app/ tree defines it: every route.ts under app/api/v1 with the
 * HTTP methods it exports, in OpenAPI path form (/api/v1/transactions/{id}). The catch-all 404
 * route is left out; OPTIONS and HEAD (CORS preflight, automatic) are not operations.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const API_ROOT = path.resolve(__dirname, "../../app/api/v1");
/** The hosted checkout's endpoints (app/checkout/[secureId]/<name>/route.ts). */
export const CHECKOUT_ROOT = path.resolve(__dirname, "../../app/checkout");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export type RouteFile = { file: string; path: string; segments: string[] };
export type RouteOperation = { method: (typeof METHODS)[number]; path: string; file: string };

export function routeFiles(dir = API_ROOT, segments: string[] = [], out: RouteFile[] = [], prefix = "/api/v1"): RouteFile[] {
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (/^\[\.\.\./.test(entry)) continue; // catch-all: the API's 404
      routeFiles(full, [...segments, entry], out, prefix);
    } else if (entry === "route.ts") {
      const parts = segments.filter((s) => !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"));
      out.push({ file: full, path: `${prefix}${parts.length ? "/" + parts.join("/") : ""}`, segments });
    }
  }
  return out;
}

export async function routeOperations(root = API_ROOT, prefix = "/api/v1"): Promise<RouteOperation[]> {
  const ops: RouteOperation[] = [];
  for (const r of routeFiles(root, [], [], prefix)) {
    const mod = (await import(r.file)) as Record<string, unknown>;
    for (const m of METHODS) if (typeof mod[m] === "function") ops.push({ method: m, path: r.path, file: r.file });
  }
  return ops;
}
