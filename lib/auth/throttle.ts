import { RateLimiterMemory } from "rate-limiter-flexible";

/**
 * Brute-force throttling of dashboard sign-in. Failures are counted per e-mail (guessing one
 * account's password) and per client IP (trying many e-mails from one place). The IP limit is
 * higher because an office behind one NAT shares an address. Counters live in this process's
 * memory: with several instances each one counts on its own, which still caps an attacker at
 * (limit x instances) guesses per window.
 */
export const LOGIN_LIMITS = {
  perEmail: 5,
  perIp: 20,
  windowSeconds: 15 * 60,
} as const;

type Limiters = { email: RateLimiterMemory; ip: RateLimiterMemory };

// On globalThis: Next bundles the auth route and the pages separately, and both must share one count.
const g = globalThis as unknown as { __araraLoginLimiters?: Limiters };

function limiters(): Limiters {
  g.__araraLoginLimiters ??= {
    email: new RateLimiterMemory({
      keyPrefix: "login-email",
      points: LOGIN_LIMITS.perEmail,
      duration: LOGIN_LIMITS.windowSeconds,
    }),
    ip: new RateLimiterMemory({ keyPrefix: "login-ip", points: LOGIN_LIMITS.perIp, duration: LOGIN_LIMITS.windowSeconds }),
  };
  return g.__araraLoginLimiters;
}

const emailKey = (email: string) => email.trim().toLowerCase();

/** Seconds until this e-mail or IP may try again, or null when not blocked. */
export async function loginBlockedFor(email: string, ip: string): Promise<number | null> {
  const l = limiters();
  const [e, i] = await Promise.all([l.email.get(emailKey(email)), l.ip.get(ip)]);
  const waits: number[] = [];
  if (e && e.consumedPoints >= LOGIN_LIMITS.perEmail) waits.push(e.msBeforeNext);
  if (i && i.consumedPoints >= LOGIN_LIMITS.perIp) waits.push(i.msBeforeNext);
  if (!waits.length) return null;
  return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
}

export async function recordLoginFailure(email: string, ip: string): Promise<void> {
  const l = limiters();
  // consume() rejects once the limit is passed; the count is what matters here, not the rejection.
  await Promise.all([l.email.consume(emailKey(email)).catch(() => {}), l.ip.consume(ip).catch(() => {})]);
}

/** A correct password clears the e-mail's count (not the IP's: one success must not reset a sweep). */
export async function recordLoginSuccess(email: string): Promise<void> {
  await limiters().email.delete(emailKey(email));
}

/**
 * The client address: the last X-Forwarded-For entry, the one added by the nearest proxy (Next fills
 * the header from the socket when it is absent). Earlier entries are whatever the client sent; with
 * no proxy in front a client can set the header itself, and then only the per-e-mail limit binds.
 */
export function clientIp(headers: Record<string, string | string[] | undefined> | Headers | undefined): string {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
  const parts = value.split(",").map((s) => s.trim()).filter(Boolean);
  return parts[parts.length - 1] ?? "unknown";
}

/** Sign-ups per IP: an account is cheap to create, so a script must not mint thousands. */
export const SIGNUP_LIMIT = { perIp: 10, windowSeconds: 60 * 60 } as const;

const gs = globalThis as unknown as { __araraSignupLimiter?: RateLimiterMemory };

/** Counts one sign-up attempt; returns the seconds to wait when the IP is over the limit, else null. */
export async function takeSignupSlot(ip: string): Promise<number | null> {
  gs.__araraSignupLimiter ??= new RateLimiterMemory({
    keyPrefix: "signup-ip",
    points: SIGNUP_LIMIT.perIp,
    duration: SIGNUP_LIMIT.windowSeconds,
  });
  try {
    await gs.__araraSignupLimiter.consume(ip);
    return null;
  } catch (res) {
    const ms = (res as { msBeforeNext?: number }).msBeforeNext ?? SIGNUP_LIMIT.windowSeconds * 1000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}
