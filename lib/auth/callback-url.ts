/**
 * Where to go after signing in: only a dashboard path on this site. Anything else (another host,
 * "//evil.example", a javascript: URL) falls back to the overview, so the sign-in page cannot be
 * used as an open redirect.
 */
export function safeCallbackUrl(raw: string | undefined | null): string {
  if (!raw) return "/dashboard";
  let path = raw;
  try {
    // next-auth and browsers may send an absolute URL of this site: keep its path only.
    if (/^https?:\/\//i.test(raw)) {
      const u = new URL(raw);
      path = `${u.pathname}${u.search}`;
    }
  } catch {
    return "/dashboard";
  }
  if (!/^\/dashboard(\/|\?|$)/.test(path) || path.includes("\\") || path.startsWith("//")) return "/dashboard";
  return path;
}
