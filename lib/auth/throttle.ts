import { clientAddress } from "@/lib/http/client-address";
import { blockedFor, clearCount, consume, type Limit } from "@/lib/http/rate-limit";

/**
 * Brute-force throttling of dashboard sign-in and sign-up, counted in the database (shared by every
 * instance). Sign-in failures are counted per e-mail *and address* (guessing one account's password
 * from one place) and per address (trying many e-mails from one place). The lock is on the pair, so a
 * stranger's wrong passwords never lock the owner out from the owner's own address; the address
 * limit is higher because an office behind one NAT shares an address. The address is the peer of the
 * connection, or what a trusted proxy reports (lib/http/client-address.ts).
 */
export const LOGIN_LIMITS = {
  perAccountAndAddress: 5,
  perAddress: 20,
  windowSeconds: 15 * 60,
} as const;

const PAIR: Limit = { name: "login-pair", points: LOGIN_LIMITS.perAccountAndAddress, windowSeconds: LOGIN_LIMITS.windowSeconds };
const ADDRESS: Limit = { name: "login-address", points: LOGIN_LIMITS.perAddress, windowSeconds: LOGIN_LIMITS.windowSeconds };

const emailKey = (email: string) => email.trim().toLowerCase();
const pairKey = (email: string, ip: string) => `${emailKey(email)}\n${ip}`;

/** Seconds until this e-mail from this address (or this address at all) may try again, or null. */
export async function loginBlockedFor(email: string, ip: string): Promise<number | null> {
  return blockedFor([
    { limit: PAIR, key: pairKey(email, ip) },
    { limit: ADDRESS, key: ip },
  ]);
}

export async function recordLoginFailure(email: string, ip: string): Promise<void> {
  await consume([
    { limit: PAIR, key: pairKey(email, ip) },
    { limit: ADDRESS, key: ip },
  ]);
}

/** A correct password clears the pair's count (not the address's: one success must not reset a sweep). */
export async function recordLoginSuccess(email: string, ip: string): Promise<void> {
  await clearCount(PAIR, pairKey(email, ip));
}

/** The client's address (see lib/http/client-address.ts): X-Forwarded-For only from TRUSTED_PROXIES. */
export function clientIp(headers: Record<string, string | string[] | undefined> | Headers | undefined): string {
  return clientAddress(headers);
}

/** Sign-ups per address: an account is cheap to create, so a script must not mint thousands. */
export const SIGNUP_LIMIT = { perIp: 10, windowSeconds: 60 * 60 } as const;
const SIGNUP: Limit = { name: "signup-address", points: SIGNUP_LIMIT.perIp, windowSeconds: SIGNUP_LIMIT.windowSeconds };

/** Counts one sign-up attempt; returns the seconds to wait when the address is over the limit, else null. */
export async function takeSignupSlot(ip: string): Promise<number | null> {
  return consume([{ limit: SIGNUP, key: ip }]);
}
