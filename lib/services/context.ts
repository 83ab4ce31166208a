import type { Account } from "@/lib/core/rows";

export type { Account };

/** Who is acting and when: passed to every service verb. */
export type ServiceContext = {
  account: Account;
  /** "api", "dashboard:<userId>", "checkout", "system" */
  actor: string;
  requestId: string;
  now: Date;
};

export function systemContext(account: Account, now = new Date()): ServiceContext {
  return { account, actor: "system", requestId: "system", now };
}
