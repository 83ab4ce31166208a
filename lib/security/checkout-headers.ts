import { NextResponse, type NextRequest } from "next/server";
import { LANG_COOKIE, parseLocale } from "@/lib/core/locale";

/**
 * Security headers of the hosted checkout (the payer's page; card data is typed into it), applied
 * by proxy.ts to /checkout/*.
 *
 * A per-request nonce lets Next's own inline bootstrap scripts run while any other inline or
 * injected script is blocked: Next reads the nonce from the request's Content-Security-Policy
 * header and stamps it on its scripts (the page is rendered per request anyway). Hashes cannot do
 * this: Next's inline scripts carry the page's data, so they differ on every request.
 * 'strict-dynamic' lets the nonced scripts load the page's chunks. No inline style attributes are
 * used, so style-src has no 'unsafe-inline'. Nothing may frame the page (clickjacking of the pay
 * button), and the URL, a capability (whoever has it sees the order), is never sent as a Referer.
 *
 * Development only (`next dev`): Next's dev overlay and hot reload evaluate code ('unsafe-eval') and
 * insert <style> elements of their own without the nonce, so style-src is 'unsafe-inline' there (a
 * nonce beside it would make browsers ignore 'unsafe-inline'). Scripts keep the nonce. Production
 * gets neither relaxation.
 */
export function checkoutProxy(request: NextRequest): NextResponse {
  // The boleto PDF is a document for the browser's PDF viewer, not a page: a CSP on it (object-src
  // 'none') can stop Chrome's built-in viewer from rendering it, and it runs no script to protect.
  if (request.nextUrl.pathname.endsWith("/boleto.pdf")) {
    const pdf = NextResponse.next();
    pdf.headers.set("referrer-policy", "no-referrer");
    pdf.headers.set("x-content-type-options", "nosniff");
    return pdf;
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const dev = process.env.NODE_ENV === "development";
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const chosen = parseLocale(request.nextUrl.searchParams.get("lang"));
  if (chosen) {
    // The page being rendered now reads the choice too (the 404 page has no query string to read).
    const others = (request.headers.get("cookie") ?? "")
      .split(";")
      .map((c) => c.trim())
      .filter((c) => c && !c.startsWith(`${LANG_COOKIE}=`));
    requestHeaders.set("cookie", [...others, `${LANG_COOKIE}=${chosen}`].join("; "));
  }
  // The root layout's <html lang> (proxy.ts names the header): English when the payer chose it, read
  // by the page's own rule (the query, then the cookie).
  if ((chosen ?? parseLocale(request.cookies.get(LANG_COOKIE)?.value)) === "en") requestHeaders.set("x-arara-page-lang", "en");
  else requestHeaders.delete("x-arara-page-lang");
  const response = NextResponse.next({ request: { headers: requestHeaders } });

  const h = response.headers;
  h.set("content-security-policy", csp);
  h.set("referrer-policy", "no-referrer");
  h.set("x-content-type-options", "nosniff");
  h.set("x-frame-options", "DENY");
  h.set("cross-origin-opener-policy", "same-origin");
  h.set("permissions-policy", "camera=(), microphone=(), geolocation=(), usb=(), payment=()");
  if (https) h.set("strict-transport-security", "max-age=31536000; includeSubDomains");

  // ?lang=en|pt sticks for the next pages of the same payment (a new PIX, a retry) via a cookie.
  if (chosen) {
    response.cookies.set(LANG_COOKIE, chosen, { path: "/checkout", maxAge: 60 * 60 * 24 * 180, sameSite: "lax", httpOnly: true, secure: https });
  }
  return response;
}
