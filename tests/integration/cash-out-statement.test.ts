/**
 * A cash-out request is written by one statement (lib/executor/cash-out-in-one-statement.ts): the
 * cash-out, its outbox event and its journal, all conditioned on the guard of the locked balance.
 * These tests hold it to what the executor's transaction (executeCashOut) writes for the same request,
 * and to writing nothing when the guard refuses.
 */
import { describe, expect, it } from "vitest";
import { asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts, companies, ledgerAccounts, ledgerJournals, ledgerPostings, webhookEvents } from "@/lib/db/schema";
import { DEFAULT_FEE_PLAN } from "@/lib/domain/fees";
import { insertCashOutWithRequest, reserveCashOutId, type NewCashOut } from "@/lib/executor/cash-out-in-one-statement";
import { executeCashOut } from "@/lib/executor/execute";
import { checkLedger } from "@/lib/ledger/check";
import { cashOutEventData } from "@/lib/webhooks/payloads";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { createTestAccount } from "../helpers/accounts";
import { balanceOf, cashOut, expectBooksAgree, paidPix } from "../helpers/money";

async function withCashOutFee(a: CreatedAccount, fixed: number) {
  await getDb()
    .update(companies)
    .set({ feePlan: { ...DEFAULT_FEE_PLAN, cashOut: { fixed } } })
    .where(eq(companies.id, a.companyId));
}

function newCashOut(a: CreatedAccount, id: number, amount: number, fee: number, now: Date): NewCashOut {
  return {
    id,
    companyId: a.companyId,
    status: "pending",
    amount,
    fee,
    pixKey: "maria@example.com",
    pixKeyType: "email",
    description: "aluguel",
    externalRef: `ref-${id}`,
    postbackUrl: "https://example.com/hooks/saque",
    processor: "sandbox",
    nextStepAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** What a cash-out left in the books and the outbox, without the ids that differ from one to another. */
async function writtenFor(cashOutId: number) {
  const db = getDb();
  const [row] = await db.select().from(cashOuts).where(eq(cashOuts.id, cashOutId));
  const events = await db.select().from(webhookEvents).where(eq(webhookEvents.cashOutId, cashOutId));
  const journals = await db.select().from(ledgerJournals).where(eq(ledgerJournals.cashOutId, cashOutId));
  const postings = journals.length
    ? await db
        .select({ account: ledgerAccounts.kind, entryType: ledgerPostings.entryType, amount: ledgerPostings.amount, balanceAfter: ledgerPostings.balanceAfter })
        .from(ledgerPostings)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
        .where(inArray(ledgerPostings.journalId, journals.map((j) => j.id)))
        .orderBy(asc(ledgerPostings.id))
    : [];
  return { row, events, journals, postings };
}

describe("a cash-out request in one statement", () => {
  it("writes what the executor's transaction writes for the same request", async () => {
    const db = getDb();
    const one = await createTestAccount("Loja Um Comando Saque");
    const two = await createTestAccount("Loja Transação Saque");
    for (const a of [one, two]) {
      await withCashOutFee(a, 50);
      await paidPix(a, 10_000); // available R$ 99,01
    }
    const now = new Date();
    const viaStatement = newCashOut(one, await reserveCashOutId(db), 3_000, 50, now);
    const outcome = await insertCashOutWithRequest(db, { now }, viaStatement, null);
    expect(outcome).toEqual({ written: true, cashOut: { ...viaStatement, end2endId: null, failReason: null, completedAt: null } });

    const viaTransaction = newCashOut(two, await reserveCashOutId(db), 3_000, 50, now);
    await db.transaction(async (tx) => {
      const [row] = await tx.insert(cashOuts).overridingSystemValue().values(viaTransaction).returning();
      await executeCashOut(tx, { actor: "test", now }, { cause: "cash_out_requested", cashOut: row, facts: {} });
    });

    const a = await writtenFor(viaStatement.id);
    const b = await writtenFor(viaTransaction.id);
    // The row the caller gets is the stored row.
    if (outcome.written) expect(a.row).toEqual(outcome.cashOut);
    const sansIds = <T extends Record<string, unknown>>(r: T, ...keys: string[]) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k)));
    expect(sansIds(a.row, "id", "companyId", "externalRef")).toEqual(sansIds(b.row, "id", "companyId", "externalRef"));

    expect(a.events).toHaveLength(1);
    expect(a.events[0]).toMatchObject({ type: "cash_out", status: "pending", orderingKey: `cash_out:${viaStatement.id}`, deliveryState: "pending", url: viaStatement.postbackUrl });
    expect(a.events[0].payload).toEqual(JSON.parse(JSON.stringify(cashOutEventData(a.row))));
    expect(sansIds(a.events[0], "id", "companyId", "cashOutId", "orderingKey", "payload")).toEqual(sansIds(b.events[0], "id", "companyId", "cashOutId", "orderingKey", "payload"));

    expect(a.journals).toHaveLength(1);
    expect(sansIds(a.journals[0], "id", "companyId", "cashOutId", "description")).toEqual(sansIds(b.journals[0], "id", "companyId", "cashOutId", "description"));
    expect(a.postings).toEqual(b.postings);
    expect(a.postings).toEqual([
      { account: "available", entryType: "cash_out", amount: -3_000, balanceAfter: 9_901 - 3_000 },
      { account: "available", entryType: "cash_out_fee", amount: -50, balanceAfter: 9_901 - 3_050 },
      { account: "reserved", entryType: "cash_out", amount: 3_000, balanceAfter: 3_000 },
      { account: "reserved", entryType: "cash_out_fee", amount: 50, balanceAfter: 3_050 },
    ]);
    expect(await expectBooksAgree(one)).toEqual(await expectBooksAgree(two));
    expect((await checkLedger(db)).ok).toBe(true);
  });

  it("writes nothing when the balance does not cover amount plus fee, and everything when it covers it exactly", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Guarda");
    await withCashOutFee(a, 50);
    await paidPix(a, 10_000); // available R$ 99,01
    const before = await balanceOf(a);
    const now = new Date();

    const short = newCashOut(a, await reserveCashOutId(db), 9_901 - 50 + 1, 50, now);
    expect(await insertCashOutWithRequest(db, { now }, short, null)).toEqual({ written: false, reason: "insufficient_balance" });
    expect(await writtenFor(short.id)).toEqual({ row: undefined, events: [], journals: [], postings: [] });
    expect(await balanceOf(a)).toEqual(before);

    const exact = newCashOut(a, await reserveCashOutId(db), 9_901 - 50, 50, now);
    expect(await insertCashOutWithRequest(db, { now }, exact, null)).toMatchObject({ written: true });
    expect(await expectBooksAgree(a)).toEqual({ available: 0, waitingFunds: 0, reserved: 9_901, total: 9_901 });
  });

  it("inside the caller's transaction, a refusal leaves that transaction usable (no error, nothing written)", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Transação Externa");
    const now = new Date();
    const refused = newCashOut(a, await reserveCashOutId(db), 100, 0, now);
    const after = await db.transaction(async (tx) => {
      const outcome = await insertCashOutWithRequest(tx, { now }, refused, null);
      // The transaction goes on: a statement that had failed would have aborted it.
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, a.companyId));
      return { outcome, company };
    });
    expect(after).toEqual({ outcome: { written: false, reason: "insufficient_balance" }, company: { id: a.companyId } });
    expect(await writtenFor(refused.id)).toEqual({ row: undefined, events: [], journals: [], postings: [] });
  });

  it("an account whose ledger accounts are not there yet goes the executor's way, with its answer", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Sem Contas");
    await db.delete(ledgerAccounts).where(eq(ledgerAccounts.companyId, a.companyId));
    const now = new Date();
    const probe = newCashOut(a, await reserveCashOutId(db), 100, 0, now);
    expect(await insertCashOutWithRequest(db, { now }, probe, null)).toEqual({ written: false, reason: "accounts_missing" });
    expect(await writtenFor(probe.id)).toEqual({ row: undefined, events: [], journals: [], postings: [] });

    const res = await cashOut(a, { amount: 100, pixKey: "maria@example.com" });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ code: "insufficient_balance" });
    expect(res.body.message).toContain("R$ 1,00");
    expect(await db.select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId))).toEqual([]);
  });

  it("cash-outs racing payments on the same balance: no error, no deadlock, the books exact", async () => {
    const a = await createTestAccount("Loja Corrida");
    await paidPix(a, 5_000); // available R$ 49,50
    // 12 payments (each R$ 10,00 less 0.99 %: R$ 9,90 available) and 24 cash-outs of R$ 5,00 at once.
    const work = [
      ...Array.from({ length: 12 }, () => paidPix(a, 1_000).then(() => ({ status: 201 }))),
      ...Array.from({ length: 24 }, (_, i) => cashOut(a, { amount: 500, pixKey: "maria@example.com", externalRef: `race-${i}` })),
    ];
    const results = await Promise.all(work);
    for (const r of results) expect([201, 422]).toContain(r.status);
    const created = (await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId))).length;
    expect(created).toBe(results.slice(12).filter((r) => r.status === 201).length);
    const books = await expectBooksAgree(a);
    expect(books.available).toBeGreaterThanOrEqual(0);
    expect(books).toEqual({ available: 4_950 + 12 * 990 - created * 500, waitingFunds: 0, reserved: created * 500, total: 4_950 + 12 * 990 });
    // Every account (the platform's too, locked by the payments' journals) equals the sum of its postings.
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });
});
