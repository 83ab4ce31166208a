import { and, eq, gte, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings } from "@/lib/db/schema";
import { ServiceError } from "@/lib/core/errors";
import { assertBalanced, nonZero, type JournalDraft } from "@/lib/domain/ledger";
import { merchantAccountId, platformAccountId } from "./accounts";

/** A journal of lib/domain/journals.ts, stamped with the time of the move. */
export type JournalInput = JournalDraft & { now: Date };

/**
 * Writes one journal inside the caller's transaction. Each account's balance moves with a single
 * `UPDATE ... SET balance = balance + x` (and, for a guarded debit, `WHERE balance + x >= 0`), so two
 * concurrent debits serialise on the row and the second sees the first's result: no overdraft, no
 * lost update. Accounts are updated in id order so concurrent journals cannot deadlock.
 */
export async function postJournal(tx: Tx, input: JournalInput): Promise<number> {
  const lines = nonZero(input.lines);
  assertBalanced(lines);
  if (lines.length === 0) return 0;
  const [journal] = await tx
    .insert(ledgerJournals)
    .values({
      companyId: input.companyId,
      kind: input.kind,
      description: input.description,
      transactionId: input.transactionId ?? null,
      cashOutId: input.cashOutId ?? null,
      createdAt: input.now,
    })
    .returning({ id: ledgerJournals.id });

  const resolved = await Promise.all(
    lines.map(async (line) => ({
      line,
      accountId:
        line.owner === "merchant"
          ? await merchantAccountId(tx, input.companyId, line.account)
          : await platformAccountId(tx, line.account),
    })),
  );
  resolved.sort((a, b) => a.accountId - b.accountId);

  for (const { line, accountId } of resolved) {
    const guard = line.owner === "merchant" && line.mustStayNonNegative && line.amount < 0;
    const updated = await tx
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + ${line.amount}` })
      .where(
        guard
          ? and(eq(ledgerAccounts.id, accountId), gte(sql`${ledgerAccounts.balance} + ${line.amount}`, 0))
          : eq(ledgerAccounts.id, accountId),
      )
      .returning({ balance: ledgerAccounts.balance });
    if (!updated[0]) {
      throw new ServiceError("insufficient_balance", "The available balance does not cover this amount.");
    }
    await tx.insert(ledgerPostings).values({
      journalId: journal.id,
      accountId,
      entryType: line.entryType,
      amount: line.amount,
      balanceAfter: Number(updated[0].balance),
      createdAt: input.now,
    });
  }
  return journal.id;
}
