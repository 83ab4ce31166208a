import type { NextResponse } from "next/server";

/**
 * Headers for the dashboard and its sign-in pages: no framing (a framed "rotate key" or "cash out"
 * button could be clickjacked), no Referer with ids leaving the site, no MIME sniffing.
 */
export function withDashboardHeaders(res: NextResponse, https: boolean): NextResponse {
  const h = res.headers;
  h.set("x-frame-options", "DENY");
  h.set("content-security-policy", "frame-ancestors 'none'");
  h.set("referrer-policy", "same-origin");
  h.set("x-content-type-options", "nosniff");
  if (https) h.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  return res;
}
