/**
 * The API's paths and the methods their route modules export, as plain data: the HTTP server hook
 * (request-guard.ts) answers a known path asked with another method with 405, an `Allow` header and
 * the one error body, where Next would send a bare 405. tests/integration/api-routes-table.test.ts
 * checks this table against the route modules under app/api/v1 and the /v1 dialect's paths.
 */
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Under /api/v1: path (`{name}` a path parameter) → exported methods. */
export const API_V1_ROUTES: Readonly<Record<string, readonly Method[]>> = {
  "/balance": ["GET"],
  "/balance/statement": ["GET"],
  "/card-token": ["POST"],
  "/cashOut": ["GET"],
  "/cashOut/request": ["POST"],
  "/cashOut/{id}": ["GET"],
  "/cashOut/{id}/webhooks": ["GET"],
  "/checkouts": ["GET", "POST"],
  "/checkouts/{id}": ["GET"],
  "/company": ["GET"],
  "/health": ["GET"],
  "/js": ["GET"],
  "/openapi.json": ["GET"],
  "/psp/api-pix/{token}": ["POST"],
  "/psp/api-pix/{token}/pix": ["POST"],
  "/transactions": ["GET", "POST"],
  "/transactions/{id}": ["GET"],
  "/transactions/{id}/delivery": ["PUT"],
  "/transactions/{id}/refund": ["POST"],
  "/transactions/{id}/test": ["PUT"],
  "/transactions/{id}/webhooks": ["GET"],
  "/webhooks/{eventId}/redeliver": ["POST"],
  "/webhooks/{eventId}/skip": ["POST"],
};

/** Under /v1 (the family's dialect): the same paths but the PSP's own, plus two family-only ones. */
export const V1_ROUTES: Readonly<Record<string, readonly Method[]>> = {
  ...Object.fromEntries(Object.entries(API_V1_ROUTES).filter(([p]) => !p.startsWith("/psp/"))),
  "/status": ["GET"],
  "/balance/available": ["GET"],
};

/**
 * Under /checkout (the hosted checkout's own endpoints, which the payer's page calls): path → methods.
 * The page itself (`/checkout/{secureId}`) is not here: Next answers pages.
 */
export const CHECKOUT_ROUTES: Readonly<Record<string, readonly Method[]>> = {
  "/{secureId}/boleto.pdf": ["GET"],
  "/{secureId}/pay": ["POST"],
  "/{secureId}/pending": ["POST"],
  "/{secureId}/qr.png": ["GET"],
  "/{secureId}/simulate": ["POST"],
  "/{secureId}/status": ["GET"],
};

function matches(pattern: string, segments: string[]): boolean {
  const parts = pattern.split("/").slice(1);
  return parts.length === segments.length && parts.every((p, i) => p.startsWith("{") || p === segments[i]);
}

/**
 * The methods a request may use on its API path (HEAD with GET, OPTIONS always, as Next answers them),
 * or null when the path is not a known API route (Next's own routing then answers it). The hosted
 * checkout's endpoints count as API routes: the payer's page reads their answers as the API's.
 */
export function allowedMethodsOf(pathname: string): string[] | null {
  const [table, rest] = pathname.startsWith("/api/v1/")
    ? [API_V1_ROUTES, pathname.slice(7)]
    : pathname.startsWith("/v1/")
      ? [V1_ROUTES, pathname.slice(3)]
      : pathname.startsWith("/checkout/")
        ? [CHECKOUT_ROUTES, pathname.slice(9)]
        : [null, ""];
  if (!table) return null;
  const segments = rest.replace(/\/+$/, "").split("/").slice(1);
  // A literal segment wins over a parameter ("cashOut/request" before "cashOut/{id}").
  const candidates = Object.keys(table)
    .filter((p) => matches(p, segments))
    .sort((a, b) => a.split("{").length - b.split("{").length);
  const methods = candidates.length ? table[candidates[0]] : null;
  if (!methods) return null;
  return [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
}
