import { brandErrorClass } from "@/lib/core/errors";
import { getEnv } from "@/lib/env";
import { ServiceError } from "@/lib/services/errors";
import { clientAddress } from "./client-address";
import { blockedFor, consume, type Limit } from "./rate-limit";

/**
 * Limits on what can be called without a secret key, counted in the database like every limit
 * (lib/http/rate-limit.ts). Per address limits apply to requests that came through the HTTP server
 * (the peer address is known); the address is the peer, or what a trusted proxy reports.
 */
export const PUBLIC_LIMITS = {
  /** Card tokenization, per public key: a merchant's checkout under heavy use stays well below (CARD_TOKEN_LIMIT_PER_KEY). */
  get cardTokenPerPublicKey(): Limit {
    return { name: "card-token-pk", points: getEnv().cardTokenLimitPerKey, windowSeconds: 60 };
  },
  /** Card tokenization, per address: a payer retrying a card a few times, not a card-testing script (CARD_TOKEN_LIMIT_PER_ADDRESS). */
  get cardTokenPerAddress(): Limit {
    return { name: "card-token-address", points: getEnv().cardTokenLimitPerAddress, windowSeconds: 60 };
  },
  /** The hosted checkout's pay and simulate routes, per address (CHECKOUT_LIMIT_PER_ADDRESS). */
  get checkoutPerAddress(): Limit {
    return { name: "checkout-address", points: getEnv().checkoutLimitPerAddress, windowSeconds: 60 };
  },
  /** Requests with credentials that do not authenticate, per address (guessing keys): fixed, not a tuning knob. */
  invalidKeyPerAddress: { name: "invalid-key-address", points: 30, windowSeconds: 60 } as Limit,
};

/** A 429 `rate_limited` with Retry-After; the handler kit turns it into the one error body. */
export class RateLimitedError extends ServiceError {
  constructor(
    readonly retryAfterSeconds: number,
    what = "requests",
  ) {
    super("rate_limited", `Too many ${what}: retry after ${retryAfterSeconds} second(s).`);
  }
}
brandErrorClass(RateLimitedError, "RateLimitedError");

const known = (address: string) => address !== "unknown";

/** Counts a card tokenization; throws RateLimitedError past either limit. */
export async function limitCardTokenization(req: Request, publicKey: string | null): Promise<void> {
  const address = clientAddress(req.headers);
  const hits = [];
  if (publicKey) hits.push({ limit: PUBLIC_LIMITS.cardTokenPerPublicKey, key: publicKey.slice(0, 200) });
  if (known(address)) hits.push({ limit: PUBLIC_LIMITS.cardTokenPerAddress, key: address });
  const wait = await consume(hits);
  if (wait !== null) throw new RateLimitedError(wait, "card tokenizations");
}

/** Counts a pay or simulate request of the hosted checkout; throws RateLimitedError past the limit. */
export async function limitCheckoutRequest(req: Request): Promise<void> {
  const address = clientAddress(req.headers);
  if (!known(address)) return;
  const wait = await consume([{ limit: PUBLIC_LIMITS.checkoutPerAddress, key: address }]);
  if (wait !== null) throw new RateLimitedError(wait, "checkout requests");
}

/**
 * Before any key is looked up: an address that sent too many invalid credentials in the window is
 * refused whatever it sends now, so guessing cannot go on (a right guess would look the same).
 */
export async function refuseAddressGuessingKeys(req: Request): Promise<void> {
  const address = clientAddress(req.headers);
  if (!known(address)) return;
  const wait = await blockedFor([{ limit: PUBLIC_LIMITS.invalidKeyPerAddress, key: address }]);
  if (wait !== null) throw new RateLimitedError(wait, "requests with invalid credentials from this address");
}

/** Counts one request whose credentials did not authenticate. */
export async function countInvalidKey(req: Request): Promise<void> {
  const address = clientAddress(req.headers);
  if (known(address)) await consume([{ limit: PUBLIC_LIMITS.invalidKeyPerAddress, key: address }]);
}
