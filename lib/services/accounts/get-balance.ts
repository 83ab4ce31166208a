import { eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { ledgerAccounts } from "@/lib/db/schema";
import type { ServiceContext } from "../context";

export type Balance = {
  /** Can be cashed out or refunded now. Negative only after a chargeback. */
  available: number;
  /** Card sales waiting for their settlement date (CARD_SETTLEMENT_DAYS). */
  waitingFunds: number;
  /**
   * Cash-outs requested and not finished, and refunds asked of the merchant's PSP (API Pix) not yet
   * answered: returned to available if the transfer or the devolução fails.
   */
  reserved: number;
  /** available + waitingFunds + reserved. */
  total: number;
};

/**
 * The merchant's balance, read from the ledger accounts. Each account's balance is moved in the
 * same statement that writes its posting, and ledger:check proves it equals the sum of postings.
 */
export async function getBalance(ctx: Pick<ServiceContext, "account">, db: Queryable = getDb()): Promise<Balance> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.companyId, ctx.account.id));
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0);
  const available = of("available");
  const waitingFunds = of("waiting_funds");
  const reserved = of("reserved");
  return { available, waitingFunds, reserved, total: available + waitingFunds + reserved };
}
