/**
 * The API's two dialects. `/api/v1` answers in the contract's envelope ({ success, status, data });
 * `/v1` is the same API as the clients of this gateway family call it: the same operations, auth,
 * idempotency, rate limit and validation, but a success body is the bare resource (a transaction at
 * the top level), and a few things those clients send are accepted (docs/switching.md lists them).
 *
 * The /v1 routes (app/v1/[...path]/route.ts) call the very route modules of /api/v1: the request
 * keeps its /v1 URL, so `dialectOf(url)` tells the handler kit and the services which dialect they
 * serve (a transaction records it: its notifications use the same dialect).
 */
import type { Dialect } from "@/lib/core/dialect";

export { DIALECTS, type Dialect } from "@/lib/core/dialect";

/** `/v1/...` is the family dialect; everything else (`/api/v1/...`) the contract's. */
export function dialectOf(url: URL | string): Dialect {
  const path = typeof url === "string" ? new URL(url, "http://localhost").pathname : url.pathname;
  return path === "/v1" || path.startsWith("/v1/") ? "v1" : "api";
}

/**
 * Unwraps a success envelope into the bare resource (the /v1 dialect). Error bodies have no `data`
 * and are returned as they are; so are bodies that are not JSON (the card token, the script, PDFs).
 */
export async function toV1Response(res: Response): Promise<Response> {
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("application/json") || res.status >= 400 || res.status === 204) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: res.status, headers: res.headers });
  }
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  if (isEnvelope(body)) return new Response(JSON.stringify(body.data), { status: res.status, headers });
  return new Response(text, { status: res.status, headers });
}

function isEnvelope(body: unknown): body is { success: true; data: unknown } {
  return typeof body === "object" && body !== null && !Array.isArray(body) && (body as { success?: unknown }).success === true && "data" in body;
}

/** Quality of a media range in an Accept header for `type` ("application/json"), and its position. */
function acceptRank(accept: string, type: string): { q: number; index: number } {
  const [major] = type.split("/");
  let best = { q: 0, index: Number.MAX_SAFE_INTEGER, specificity: -1 };
  accept.split(",").forEach((part, index) => {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity < 0 || specificity < best.specificity) return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { q: Number.isFinite(q) ? q : 0, index, specificity };
  });
  return { q: best.q, index: best.index };
}

/**
 * Whether an Accept header prefers JSON over plain text: a higher quality, or the same quality and
 * listed first ("application/json, text/plain, *\/*", as axios sends it). No header, or `*\/*`
 * alone, is a tie resolved for text (the contract's answer).
 */
export function prefersJson(accept: string | null): boolean {
  if (!accept) return false;
  const json = acceptRank(accept, "application/json");
  const text = acceptRank(accept, "text/plain");
  if (json.q !== text.q) return json.q > text.q;
  return json.q > 0 && json.index < text.index;
}
