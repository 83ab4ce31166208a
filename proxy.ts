import { NextResponse, type NextRequest } from "next/server";
import { checkoutProxy } from "@/lib/security/checkout-headers";
import { withDashboardHeaders } from "@/lib/auth/dashboard-headers";

/**
 * A fast path for signed-out visitors of the dashboard: without a session cookie they go straight
 * to the sign-in page, which returns them to where they were going. This only looks for the cookie;
 * the real check (signature, expiry, user still existing) is requireSession() in every page, action
 * and route handler, so nothing relies on this file for security.
 */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

/** Pages written in English: the root layout declares `<html lang="en">` for them (from this header). */
const ENGLISH_PAGES = /^\/docs(\/|$)/;
const PAGE_LANG_HEADER = "x-arara-page-lang";

export function proxy(req: NextRequest) {
  if (ENGLISH_PAGES.test(req.nextUrl.pathname)) {
    const headers = new Headers(req.headers);
    headers.set(PAGE_LANG_HEADER, "en");
    return NextResponse.next({ request: { headers } });
  }
  // The hosted checkout: CSP with a per-request nonce and the other security headers.
  if (req.nextUrl.pathname.startsWith("/checkout/")) return checkoutProxy(req);
  const https = req.nextUrl.protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  if (!req.nextUrl.pathname.startsWith("/dashboard")) return withDashboardHeaders(NextResponse.next(), https); // /login, /signup, /convite
  const hasSession = req.cookies.getAll().some((c) => SESSION_COOKIES.some((n) => c.name === n || c.name.startsWith(`${n}.`)));
  // Only page loads are redirected here: a server action (a POST) must reach its own session check,
  // which answers in the form the client expects; a redirect to the HTML sign-in page would break it.
  if (hasSession || (req.method !== "GET" && req.method !== "HEAD")) return withDashboardHeaders(NextResponse.next(), https);
  const login = req.nextUrl.clone();
  login.pathname = "/login";
  login.search = "";
  login.searchParams.set("callbackUrl", `${req.nextUrl.pathname}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = { matcher: ["/docs", "/dashboard", "/dashboard/:path*", "/login", "/signup", "/convite/:path*", "/checkout/:path*"] };
