import type { Account } from "@/lib/core/rows";
import type { Dialect } from "@/lib/core/dialect";

export type { Account };

/** Who is acting and when: passed to every service verb. */
export type ServiceContext = {
  account: Account;
  /** "api", "dashboard:<userId>", "checkout", "system" */
  actor: string;
  requestId: string;
  now: Date;
  /** The API dialect of the request (lib/http/dialect.ts); absent: "api". */
  dialect?: Dialect;
  /**
   * The processor the account's PSP settings name (null: no settings), as the statement that
   * authenticated the request read them (lib/http/authenticate.ts). Absent where nothing read them
   * (dashboard, jobs): the services then read the settings themselves.
   */
  pspProcessor?: string | null;
  /**
   * A transaction id the authenticating statement already took for this request (a PIX charge over
   * the API: lib/http/authenticate.ts). The charge uses it instead of taking one; absent elsewhere.
   */
  reservedTransactionId?: number;
  /** The same for a cash-out requested over the API (its event and Efí's idEnvio are built from its id). */
  reservedCashOutId?: number;
  /**
   * A webhook URL this request already checked (a DNS lookup: lib/webhooks/ssrf.ts checkPostbackUrl),
   * before its transaction opened: the verb does not look it up again inside it.
   */
  postbackUrlChecked?: string;
  /**
   * A PIX charge made for this request stops being payable by then at the latest (a payment link's
   * expiresAt, lib/services/checkouts/pay-checkout.ts): the payer cannot pay a link after it expired.
   */
  pixExpiresBy?: Date | null;
};

export function systemContext(account: Account, now = new Date()): ServiceContext {
  return { account, actor: "system", requestId: "system", now };
}
