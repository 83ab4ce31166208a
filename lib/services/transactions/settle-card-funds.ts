import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { drain } from "@/lib/core/drain";
import { getDb } from "@/lib/db/client";
import { ledgerJournals, ledgerPostings, transactions } from "@/lib/db/schema";
import { executeTransaction } from "@/lib/executor/execute";
import { merchantAccountId } from "@/lib/ledger/accounts";
import { getLogger } from "@/lib/logger";

/**
 * Card funds whose settlement date has come (settle_at <= now, not yet settled): what each sale
 * still has in waiting_funds (the sum of its postings there, i.e. the net of its payment less any
 * refund or chargeback taken from it) moves to available. One database transaction per sale,
 * claimed with FOR UPDATE SKIP LOCKED: instances share the queue, and a refund or chargeback
 * running on the same sale (which holds its row lock) is simply settled on the next pass, after
 * it. Returns how many sales were settled.
 */
export async function settleDueCardFunds(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const limit = opts.limit ?? 100;
  return drain(limit, () =>
    getDb().transaction(async (tx) => {
      const [t] = await tx
        .select()
        .from(transactions)
        .where(and(lte(transactions.settleAt, now), isNull(transactions.settledAt)))
        .orderBy(asc(transactions.settleAt), asc(transactions.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!t) return false;
      const waitingId = await merchantAccountId(tx, t.companyId, "waiting_funds");
      const [{ waiting }] = await tx
        .select({ waiting: sql<string | null>`sum(${ledgerPostings.amount})` })
        .from(ledgerPostings)
        .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerPostings.journalId))
        .where(and(eq(ledgerJournals.transactionId, t.id), eq(ledgerPostings.accountId, waitingId)));
      const amount = Number(waiting ?? 0);
      if (amount < 0) {
        // Cannot happen through the journals (a sale's waiting share never goes below zero);
        // left for `npm run ledger:check` to report rather than blocking the queue behind it.
        getLogger().error({ transactionId: t.id, waiting: amount }, "settlement found a negative waiting share");
      }
      // The money table's `card_settled` row: settledAt, and the settlement journal when money is waiting.
      await executeTransaction(tx, { actor: "system", now }, { cause: "card_settled", transaction: t, facts: { waiting: amount, settledAt: now } });
      return true;
    }),
  );
}
