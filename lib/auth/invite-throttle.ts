import { consume, giveBack, type Limit } from "@/lib/http/rate-limit";
import type { TokenGuessThrottle } from "@/lib/services/accounts/team";

/**
 * Guesses of a team invitation's token (the page /convite/<token> and its form), counted in the
 * database per address like the sign-in's (lib/auth/throttle.ts): each try is counted before the token
 * is looked up, and a right token gives its point back, so an address gets this many wrong tokens per
 * window, however many it sends at once. A token has 256 random bits: the limit is there so that no
 * one can use the page to probe at the database's pace.
 */
export const INVITE_TOKEN_LIMIT = { perAddress: 10, windowSeconds: 15 * 60 } as const;
const PER_ADDRESS: Limit = { name: "invite-token-address", points: INVITE_TOKEN_LIMIT.perAddress, windowSeconds: INVITE_TOKEN_LIMIT.windowSeconds };

export function inviteTokenThrottle(ip: string): TokenGuessThrottle {
  const hits = [{ limit: PER_ADDRESS, key: ip }];
  return {
    reserve: () => consume(hits),
    recordSuccess: () => giveBack(hits),
  };
}
