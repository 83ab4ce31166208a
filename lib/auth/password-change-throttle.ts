import { consume, giveBack, type Limit } from "@/lib/http/rate-limit";
import type { PasswordGuessThrottle } from "@/lib/services/accounts/change-password";
import { recordLoginSuccess, takeLoginAttempt } from "./throttle";

/**
 * The throttle of the password form's current-password check, counted in the database like the
 * sign-in's (lib/auth/throttle.ts). A wrong current password is a failed sign-in of this e-mail from
 * this address (the login's own counters): the form is no second door for guessing the password, and
 * the two together get the sign-in's budget, not twice it. The form is reached with a session, so it
 * is also counted per user whatever the address: a copied session cookie used from many addresses
 * gets this many guesses per window, no more. That second lock only closes the form; signing in is
 * not affected by it.
 */
export const PASSWORD_CHANGE_LIMIT = { perUser: 10, windowSeconds: 15 * 60 } as const;
const PER_USER: Limit = { name: "password-change-user", points: PASSWORD_CHANGE_LIMIT.perUser, windowSeconds: PASSWORD_CHANGE_LIMIT.windowSeconds };

export function passwordChangeThrottle(user: { id: number; email: string }, ip: string): PasswordGuessThrottle {
  const perUser = [{ limit: PER_USER, key: String(user.id) }];
  return {
    async reserve() {
      // Both counted before the guess is checked (see takeLoginAttempt): a burst is held to the limits.
      const waits = [await takeLoginAttempt(user.email, ip), await consume(perUser)];
      const wait = Math.max(...waits.map((w) => w ?? 0));
      return wait > 0 ? wait : null;
    },
    async recordSuccess() {
      await recordLoginSuccess(user.email, ip);
      await giveBack(perUser);
    },
  };
}
