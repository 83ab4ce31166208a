import { and, eq, gte, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings } from "@/lib/db/schema";
import { ServiceError } from "@/lib/core/errors";
import { assertBalanced, nonZero, type JournalDraft, type PostingLine } from "@/lib/domain/ledger";
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

  // Each distinct account is looked up once.
  const keyOf = (l: PostingLine) => `${l.owner}:${l.account}`;
  const ids = new Map<string, Promise<number>>();
  for (const line of lines) {
    if (!ids.has(keyOf(line))) {
      ids.set(keyOf(line), line.owner === "merchant" ? merchantAccountId(tx, input.companyId, line.account) : platformAccountId(tx, line.account));
    }
  }
  const byAccount = new Map<number, PostingLine[]>();
  for (const line of lines) {
    const accountId = await ids.get(keyOf(line))!;
    byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), line]);
  }

  // Balances move last, one UPDATE per account in id order, then every posting in one INSERT: the
  // account rows (a merchant's available balance is the hottest row there is) stay locked for as
  // short a time as possible before the commit. An account's lines are applied in order: its UPDATE
  // adds their sum, and its guard asks that the balance after each guarded debit stays >= 0 (the
  // lowest of those running balances), exactly as one guarded UPDATE per line would.
  const postings: (typeof ledgerPostings.$inferInsert)[] = [];
  for (const accountId of [...byAccount.keys()].sort((x, y) => x - y)) {
    const accountLines = byAccount.get(accountId)!;
    let running = 0;
    let lowestGuarded: number | null = null;
    for (const line of accountLines) {
      running += line.amount;
      const guard = line.owner === "merchant" && line.mustStayNonNegative && line.amount < 0;
      if (guard) lowestGuarded = lowestGuarded === null ? running : Math.min(lowestGuarded, running);
    }
    const updated = await tx
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + ${running}` })
      .where(
        lowestGuarded !== null
          ? and(eq(ledgerAccounts.id, accountId), gte(sql`${ledgerAccounts.balance} + ${lowestGuarded}`, 0))
          : eq(ledgerAccounts.id, accountId),
      )
      .returning({ balance: ledgerAccounts.balance });
    if (!updated[0]) {
      throw new ServiceError("insufficient_balance", "The available balance does not cover this amount.");
    }
    let balance = Number(updated[0].balance) - running;
    for (const line of accountLines) {
      balance += line.amount;
      postings.push({ journalId: journal.id, accountId, entryType: line.entryType, amount: line.amount, balanceAfter: balance, createdAt: input.now });
    }
  }
  await tx.insert(ledgerPostings).values(postings);
  return journal.id;
}
