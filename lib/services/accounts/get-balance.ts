import { eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { ledgerAccounts } from "@/lib/db/schema";
import type { ServiceContext } from "../context";

export type Balance = {
  /** Held by Arara for the merchant: can be cashed out (Arara's payouts) or refunded now. Negative only after a chargeback. */
  available: number;
  /**
   * PIX received through the merchant's own PSP (API Pix), net of Arara's fees and of what was
   * refunded or sent out from there: a record of money in the merchant's PSP account, never Arara's to
   * pay out. A cash-out from it is a transfer from that account (Efí's Pix Envio).
   */
  availableAtPsp: number;
  /** Card sales waiting for their settlement date (CARD_SETTLEMENT_DAYS). */
  waitingFunds: number;
  /**
   * Cash-outs requested and not finished, and refunds asked of the merchant's PSP (API Pix) not yet
   * answered: returned to available if the transfer or the devolução fails.
   */
  reserved: number;
  /** available + availableAtPsp + waitingFunds + reserved. */
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
  const availableAtPsp = of("available_at_psp");
  const waitingFunds = of("waiting_funds");
  const reserved = of("reserved");
  return { available, availableAtPsp, waitingFunds, reserved, total: available + availableAtPsp + waitingFunds + reserved };
}
