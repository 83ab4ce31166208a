import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { getDb, type Db, type Queryable } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { cashOuts, ledgerAccounts, ledgerJournals, ledgerPostings, transactions } from "@/lib/db/schema";
import { ensureLedgerAccounts, merchantAccountId } from "@/lib/ledger/accounts";
import { checkLedger, ledgerCheckSummary } from "@/lib/ledger/check";
import { postJournal } from "@/lib/ledger/post";
import { createTestAccount } from "../helpers/accounts";
import { cashOut, paidCard, paidPix } from "../helpers/money";

const ROOT = path.resolve(__dirname, "../..");

/** Runs `check` inside a transaction that is always rolled back: the test database stays clean. */
async function inRollback<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let out: T | undefined;
  const rollback = new Error("rollback");
  await getDb()
    .transaction(async (tx) => {
      out = await fn(tx);
      throw rollback;
    })
    .catch((e) => {
      if (e !== rollback) throw e;
    });
  return out as T;
}

async function journal(tx: Queryable, companyId: number, kind: string, lines: { accountId: number; amount: number; balanceAfter: number; entryType?: string }[]) {
  const [j] = await tx.insert(ledgerJournals).values({ companyId, kind, description: `test ${kind}` }).returning();
  for (const l of lines) {
    await tx.insert(ledgerPostings).values({ journalId: j.id, accountId: l.accountId, entryType: l.entryType ?? kind, amount: l.amount, balanceAfter: l.balanceAfter });
  }
  return j.id;
}

describe("checkLedger", () => {
  it("passes on books written by the services, and names each kind of violation", async () => {
    const m = await createTestAccount("Loja Auditoria");
    await paidPix(m, 10_000);
    await paidCard(m, 5_000);
    await cashOut(m, { amount: 1_000, pixKey: "11144477735" });
    const clean = await checkLedger(getDb());
    expect(clean.violations).toEqual([]);
    expect(ledgerCheckSummary(clean)).toMatch(/^ledger ok: \d+ journals, \d+ postings/);

    const available = await merchantAccountId(getDb(), m.companyId, "available");
    const [{ balance }] = await getDb().select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.id, available));

    // A journal that does not sum to zero (and whose posting's balance is not on the account).
    const unbalanced = await inRollback(async (tx) => {
      const id = await journal(tx, m.companyId, "adjustment", [{ accountId: available, amount: 5, balanceAfter: balance + 5 }]);
      return { id, r: await checkLedger(tx) };
    });
    expect(unbalanced.r.ok).toBe(false);
    expect(unbalanced.r.violations).toContain(`journal ${unbalanced.id} (adjustment) postings sum to 5, not 0`);
    expect(unbalanced.r.violations.some((v) => v.startsWith(`account ${available} (company ${m.companyId} available) balance`))).toBe(true);

    // A balance that drifted from its postings (a bare counter update).
    const drift = await inRollback(async (tx) => {
      await tx.update(ledgerAccounts).set({ balance: sql`${ledgerAccounts.balance} + 1` }).where(eq(ledgerAccounts.id, available));
      return checkLedger(tx);
    });
    expect(drift.violations).toEqual([
      `account ${available} (company ${m.companyId} available) balance ${balance + 1} but postings sum to ${balance} and the latest balanceAfter is ${balance}`,
    ]);

    // A broken running balance.
    const chain = await inRollback(async (tx) => {
      const platform = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.kind, "psp_clearing"));
      await journal(tx, m.companyId, "adjustment", [
        { accountId: available, amount: 7, balanceAfter: balance + 70 },
        { accountId: platform[0].id, amount: -7, balanceAfter: Number(platform[0].balance) - 7 },
      ]);
      return checkLedger(tx);
    });
    expect(chain.violations.some((v) => v.includes(`balanceAfter ${balance + 70} is not the previous ${balance} plus 7`))).toBe(true);

    // A debit other than a chargeback that overdraws available (postJournal without the guard).
    const overdraft = await inRollback(async (tx) => {
      await postJournal(tx as never, {
        companyId: m.companyId,
        kind: "adjustment",
        description: "unguarded debit",
        now: new Date(),
        lines: [
          { owner: "merchant", account: "available", entryType: "adjustment", amount: -(balance + 100) },
          { owner: "platform", account: "platform_fees", entryType: "adjustment", amount: balance + 100 },
        ],
      });
      return checkLedger(tx);
    });
    expect(overdraft.violations).toHaveLength(1);
    expect(overdraft.violations[0]).toMatch(/\(adjustment\) took company \d+'s available to -100 .*only a chargeback may overdraw/);

    // The same overdraft by a chargeback is allowed.
    const chargeback = await inRollback(async (tx) => {
      await postJournal(tx as never, {
        companyId: m.companyId,
        kind: "chargeback",
        description: "chargeback",
        now: new Date(),
        lines: [
          { owner: "merchant", account: "available", entryType: "chargeback", amount: -(balance + 100) },
          { owner: "platform", account: "psp_clearing", entryType: "chargeback", amount: balance + 100 },
        ],
      });
      return checkLedger(tx);
    });
    expect(chargeback.violations).toEqual([]);

    // Custody: a sandbox PIX's money moved to where money at the merchant's own PSP is recorded.
    const mixed = await inRollback(async (tx) => {
      const [t] = await tx.select().from(transactions).where(and(eq(transactions.paymentMethod, "pix"), eq(transactions.companyId, m.companyId))).limit(1);
      await postJournal(tx as never, {
        companyId: m.companyId,
        transactionId: t.id,
        kind: "settlement",
        description: "sandbox money sent to the PSP's side",
        now: new Date(),
        lines: [
          { owner: "merchant", account: "available", entryType: "settlement", amount: -1 },
          { owner: "merchant", account: "available_at_psp", entryType: "settlement", amount: 1 },
        ],
      });
      return { t, r: await checkLedger(tx) };
    });
    expect(mixed.r.violations).toHaveLength(1);
    expect(mixed.r.violations[0]).toMatch(new RegExp(`\\(settlement, for transaction ${mixed.t.id}\\) moved available_at_psp: money held at the merchant's PSP and money Arara holds must not mix`));

    // A card sale (R$ 50,00, fee 3.99% + R$ 0,39 = R$ 2,39) whose row says R$ 1,00 was refunded with no
    // refund journal: both the refund total and its waiting share disagree with the ledger.
    const cardMismatch = await inRollback(async (tx) => {
      const [t] = await tx.select().from(transactions).where(eq(transactions.paymentMethod, "credit_card")).limit(1);
      await tx.update(transactions).set({ refundedAmount: 100 }).where(eq(transactions.id, t.id));
      return { t, r: await checkLedger(tx) };
    });
    expect(cardMismatch.r.violations).toContain(`transaction ${cardMismatch.t.id}: refundedAmount is 100 but its refund postings total 0`);
    expect(cardMismatch.r.violations.some((v) => v.startsWith(`transaction ${cardMismatch.t.id} (paid) has 4761 in waiting_funds; its journals should leave 4661`))).toBe(true);

    // A cash-out marked failed whose money never came back.
    const lost = await inRollback(async (tx) => {
      const [c] = await tx.select().from(cashOuts).limit(1);
      await tx.update(cashOuts).set({ status: "failed" }).where(eq(cashOuts.id, c.id));
      return { c, r: await checkLedger(tx) };
    });
    expect(lost.r.violations).toEqual([`cash-out ${lost.c.id} (failed, amount + fee 1000): 1000 net debited from its funds, 1000 in reserved`]);

    expect((await checkLedger(getDb())).violations).toEqual([]);
  });
});

/** A database the script (a separate process) can open: this file's PostgreSQL database, or a PGlite directory. */
async function scriptDatabase(): Promise<{ env: Record<string, string>; db: Db; done: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { env: { DATABASE_URL: process.env.DATABASE_URL }, db: getDb(), done: async () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), "arara-ledger-check-"));
  const client = new PGlite(path.join(dir, "db"));
  const db = drizzle(client, { schema, casing: "snake_case" });
  await migrate(db, { migrationsFolder: path.join(ROOT, "drizzle") });
  return {
    env: { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" },
    db: db as unknown as Db,
    done: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function runScript(env: Record<string, string>) {
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/ledger-check.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("npm run ledger:check", () => {
  it("exits 0 with a one-line summary on sound books, 1 listing the violations otherwise", async () => {
    const target = await scriptDatabase();
    try {
      await ensureLedgerAccounts(target.db, 424_242);
      const available = await merchantAccountId(target.db, 424_242, "available");
      await target.db.transaction((tx) =>
        postJournal(tx, {
          companyId: 424_242,
          kind: "adjustment",
          description: "opening credit",
          now: new Date(),
          lines: [
            { owner: "merchant", account: "available", entryType: "adjustment", amount: 500 },
            { owner: "platform", account: "platform_fees", entryType: "adjustment", amount: -500 },
          ],
        }),
      );
      if (!process.env.DATABASE_URL) await (target.db as unknown as { $client: PGlite }).$client.close();
      const ok = runScript(target.env);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout.trim().split("\n")).toHaveLength(1);
      expect(ok.stdout).toMatch(/^ledger ok: /);
      // Which database it read, on stderr (stdout stays the one summary line).
      expect(ok.stderr).toMatch(process.env.DATABASE_URL ? /^Checked the ledger of PostgreSQL/m : /^Checked the ledger of .*(PGlite|embedded)/im);

      // Break it: a bare balance update that no posting explains.
      const broken = process.env.DATABASE_URL ? target : await reopen(target.env.PGLITE_DIR);
      await broken.db.update(ledgerAccounts).set({ balance: 501 }).where(eq(ledgerAccounts.id, available));
      if (!process.env.DATABASE_URL) await (broken.db as unknown as { $client: PGlite }).$client.close();
      const bad = runScript(target.env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`- account ${available} (company 424242 available) balance 501 but postings sum to 500`);
      expect(bad.stderr).toMatch(/ledger has 1 violation\(s\)/);
    } finally {
      if (process.env.DATABASE_URL) {
        // Leave this file's database sound for anything that runs after.
        await getDb().update(ledgerAccounts).set({ balance: 500 }).where(eq(ledgerAccounts.companyId, 424_242));
      }
      await target.done().catch(() => {});
    }
  }, 120_000);
});

async function reopen(dir: string) {
  const client = new PGlite(dir);
  return { db: drizzle(client, { schema, casing: "snake_case" }) as unknown as Db };
}
