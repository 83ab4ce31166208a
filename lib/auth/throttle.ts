import { clientAddress } from "@/lib/http/client-address";
import { clearCount, consume, giveBack, type Limit } from "@/lib/http/rate-limit";

/**
 * Brute-force throttling of dashboard sign-in and sign-up, counted in the database (shared by every
 * instance). Sign-in attempts are counted (before the check; a right password gives its point back) per e-mail *and address* (guessing one account's password
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

const loginHits = (email: string, ip: string) => [
  { limit: PAIR, key: pairKey(email, ip) },
  { limit: ADDRESS, key: ip },
];

/**
 * Counts a sign-in attempt *before* its password is checked (one atomic upsert): the seconds to wait
 * when this e-mail from this address, or this address, is over its limit, else null. Counting first
 * is what makes the limit hold against a burst: requests in flight at once each take a point, so N
 * parallel guesses cannot all pass a check made before any of them was counted. An attempt whose
 * password turns out right gives its point back (recordLoginSuccess).
 */
export async function takeLoginAttempt(email: string, ip: string): Promise<number | null> {
  return consume(loginHits(email, ip));
}

/**
 * A correct password: clears the pair's count, and gives back the address's point this attempt took
 * (successes are not failures; one success must not reset a sweep across e-mails).
 */
export async function recordLoginSuccess(email: string, ip: string): Promise<void> {
  await clearCount(PAIR, pairKey(email, ip));
  await giveBack([{ limit: ADDRESS, key: ip }]);
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
