import { consume, consumeIn, giveBack, type Limit } from "@/lib/http/rate-limit";
import { mailboxKey } from "@/lib/domain/mailbox";
import type { InvitationThrottle, TokenGuessThrottle } from "@/lib/services/accounts/team";

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

/**
 * Invitations sent (each one a mail to the address through the merchant's SMTP): per account, and per
 * recipient mailbox whichever account invites it (lib/domain/mailbox.ts: `ana+x@` and, at Gmail,
 * `a.na@` count as `ana@`), so that the Team page cannot be used to mail-bomb
 * or spam an address. Fixed windows in rate_limit_counters (shared by every instance), counted inside
 * the invitation's transaction by one atomic upsert per limit: the counter's row stays locked until
 * the invitation commits or rolls back, so invitations sent at once, from any process, are counted one
 * after another, and one refused (or rolled back for any reason) is not counted.
 */
export const INVITE_SEND_LIMITS = {
  perAccount: 20,
  perAccountWindowSeconds: 60 * 60,
  perRecipient: 3,
  perRecipientWindowSeconds: 24 * 60 * 60,
} as const;
const PER_ACCOUNT: Limit = { name: "invite-send-account", points: INVITE_SEND_LIMITS.perAccount, windowSeconds: INVITE_SEND_LIMITS.perAccountWindowSeconds };
const PER_RECIPIENT: Limit = { name: "invite-send-recipient", points: INVITE_SEND_LIMITS.perRecipient, windowSeconds: INVITE_SEND_LIMITS.perRecipientWindowSeconds };

export const invitationThrottle: InvitationThrottle = {
  async take(tx, { companyId, email, now }) {
    const nowMs = now.getTime();
    // The account's counter first: an account over its limit does not touch the recipient's count.
    const account = await consumeIn(tx, [{ limit: PER_ACCOUNT, key: String(companyId) }], nowMs);
    if (account !== null) return { over: "account", seconds: account };
    const recipient = await consumeIn(tx, [{ limit: PER_RECIPIENT, key: mailboxKey(email) }], nowMs);
    if (recipient !== null) return { over: "recipient", seconds: recipient };
    return null;
  },
};
