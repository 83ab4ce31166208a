/**
 * A cash-out request is written by one statement (lib/executor/cash-out-in-one-statement.ts): the
 * cash-out, its outbox event and its journal, all conditioned on the guard of the locked balance.
 * These tests hold it to what the executor's transaction (executeCashOut) writes for the same request,
 * and to writing nothing when the guard refuses. A later move (processing, completed, failed) is one
 * statement too: the row, its event and its journal, or nothing.
 */
import { describe, expect, it } from "vitest";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts, companies, ledgerAccounts, ledgerJournals, ledgerPostings, webhookEvents } from "@/lib/db/schema";
import { DEFAULT_FEE_PLAN } from "@/lib/domain/fees";
import { insertCashOutWithRequest, reserveCashOutId, type NewCashOut } from "@/lib/executor/cash-out-in-one-statement";
import { executeCashOut, type CashOutStep } from "@/lib/executor/execute";
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
  const events = await db.select().from(webhookEvents).where(eq(webhookEvents.cashOutId, cashOutId)).orderBy(asc(webhookEvents.id));
  const journals = await db.select().from(ledgerJournals).where(eq(ledgerJournals.cashOutId, cashOutId)).orderBy(asc(ledgerJournals.id));
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
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 0, waitingFunds: 0, reserved: 9_901, total: 9_901 });
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
    expect(books).toEqual({ available: 4_950 + 12 * 990 - created * 500, availableAtPsp: 0, waitingFunds: 0, reserved: created * 500, total: 4_950 + 12 * 990 });
    // Every account (the platform's too, locked by the payments' journals) equals the sum of its postings.
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });
});

/** A requested cash-out of `amount` (fee 50), written by the request's statement. */
async function requested(a: CreatedAccount, amount: number) {
  const db = getDb();
  const now = new Date();
  const row = newCashOut(a, await reserveCashOutId(db), amount, 50, now);
  const outcome = await insertCashOutWithRequest(db, { now }, row, null);
  if (!outcome.written) throw new Error(`cash-out not written: ${outcome.reason}`);
  return outcome.cashOut;
}

const move = (step: CashOutStep) => getDb().transaction((tx) => executeCashOut(tx, { actor: "test", now: new Date() }, step));

describe("a cash-out's later move in one statement", () => {
  it("processing, then completed: the row returned is the row stored, each event is made from it, the journal moves reserved to the PSP", async () => {
    const a = await createTestAccount("Loja Saque Concluído");
    await withCashOutFee(a, 50);
    await paidPix(a, 10_000); // available R$ 99,01
    const c = await requested(a, 3_000);

    const processing = await move({ cause: "cash_out_processing", cashOut: c, facts: { nextStepAt: new Date(Date.now() + 60_000) } });
    let w = await writtenFor(c.id);
    expect(w.row).toEqual(processing);
    expect(w.row.status).toBe("processing");
    expect(w.events.map((e) => e.status)).toEqual(["pending", "processing"]);
    expect(w.events[1]).toMatchObject({ deliveryState: "pending", url: c.postbackUrl, orderingKey: `cash_out:${c.id}` });
    expect(w.events[1].payload).toEqual(JSON.parse(JSON.stringify(cashOutEventData(w.row))));
    expect(w.journals).toHaveLength(1); // the request's: a move to processing moves no money

    const completedAt = new Date();
    const completed = await move({ cause: "cash_out_completed", cashOut: processing, facts: { end2endId: "E00000000202611260000abcdef123456", completedAt } });
    w = await writtenFor(c.id);
    expect(w.row).toEqual(completed);
    expect(w.row).toMatchObject({ status: "completed", end2endId: "E00000000202611260000abcdef123456", completedAt, nextStepAt: null });
    expect(w.events.map((e) => e.status)).toEqual(["pending", "processing", "completed"]);
    expect(w.events[2].payload).toEqual(JSON.parse(JSON.stringify(cashOutEventData(w.row))));
    expect(w.journals.map((j) => j.kind)).toEqual(["cash_out", "cash_out"]);
    // In the accounts' lock order: the platform's (owner 0) first.
    expect(w.postings.slice(4)).toEqual([
      { account: "platform_fees", entryType: "cash_out_fee", amount: 50, balanceAfter: expect.any(Number) },
      { account: "psp_clearing", entryType: "cash_out", amount: 3_000, balanceAfter: expect.any(Number) },
      { account: "reserved", entryType: "cash_out", amount: -3_000, balanceAfter: 50 },
      { account: "reserved", entryType: "cash_out_fee", amount: -50, balanceAfter: 0 },
    ]);
    expect(await expectBooksAgree(a)).toEqual({ available: 9_901 - 3_050, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9_901 - 3_050 });
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });

  it("failed: amount and fee go back to available, with the failure's reason in the row and its event", async () => {
    const a = await createTestAccount("Loja Saque Falho");
    await withCashOutFee(a, 50);
    await paidPix(a, 10_000);
    const c = await requested(a, 2_000);
    const failed = await move({ cause: "cash_out_failed", cashOut: c, facts: { failReason: "chave não encontrada" } });
    const w = await writtenFor(c.id);
    expect(w.row).toEqual(failed);
    expect(w.row).toMatchObject({ status: "failed", failReason: "chave não encontrada", nextStepAt: null });
    expect(w.events[1].payload).toMatchObject({ status: "failed", failReason: "chave não encontrada" });
    expect(w.postings.slice(4)).toEqual([
      { account: "available", entryType: "cash_out_reversal", amount: 2_050, balanceAfter: 9_901 },
      { account: "reserved", entryType: "cash_out_reversal", amount: -2_050, balanceAfter: 0 },
    ]);
    expect(await expectBooksAgree(a)).toEqual({ available: 9_901, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9_901 });
  });

  it("a row no longer in the status read: 409 conflict, and nothing written (no event, no journal, no balance moved)", async () => {
    const a = await createTestAccount("Loja Saque Concorrente");
    await withCashOutFee(a, 50);
    await paidPix(a, 10_000);
    const c = await requested(a, 1_000);
    await move({ cause: "cash_out_processing", cashOut: c, facts: { nextStepAt: new Date() } });
    const before = { written: await writtenFor(c.id), books: await expectBooksAgree(a) };

    // The row as read before the move above: pending, where it is now processing.
    await expect(move({ cause: "cash_out_failed", cashOut: c, facts: { failReason: "tarde" } })).rejects.toMatchObject({ code: "conflict" });
    await expect(move({ cause: "cash_out_processing", cashOut: c, facts: { nextStepAt: new Date() } })).rejects.toMatchObject({ code: "conflict" });
    expect(await writtenFor(c.id)).toEqual(before.written);
    expect(await expectBooksAgree(a)).toEqual(before.books);
  });

  it("a guarded debit the locked balance does not cover: 422, the caller's transaction still usable, nothing written", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Reserva Curta");
    await withCashOutFee(a, 50);
    await paidPix(a, 10_000);
    const c = await requested(a, 1_000);
    const before = await writtenFor(c.id);
    // Read as processing while it is still pending: the stale row is refused first (409), whatever the balance.
    const seen = await db
      .transaction(async (tx) => {
        // Less reserved than the cash-out holds: a state only a broken ledger has, made here to reach the guard.
        await tx.update(ledgerAccounts).set({ balance: 1_000 }).where(and(eq(ledgerAccounts.companyId, a.companyId), eq(ledgerAccounts.kind, "reserved")));
        const error = await executeCashOut(tx, { actor: "test", now: new Date() }, { cause: "cash_out_completed", cashOut: { ...c, status: "processing" }, facts: { end2endId: "E1", completedAt: new Date() } }).catch((e: unknown) => e);
        const [row] = await tx.select().from(cashOuts).where(eq(cashOuts.id, c.id));
        const events = await tx.select().from(webhookEvents).where(eq(webhookEvents.cashOutId, c.id));
        throw Object.assign(new Error("roll back"), { seen: { error, status: row.status, events: events.length } });
      })
      .catch((e: { seen?: unknown }) => e.seen);
    expect(seen).toEqual({ error: expect.objectContaining({ code: "conflict" }), status: "pending", events: 1 });

    const seenProcessing = await db
      .transaction(async (tx) => {
        const processing = await executeCashOut(tx, { actor: "test", now: new Date() }, { cause: "cash_out_processing", cashOut: c, facts: { nextStepAt: new Date() } });
        await tx.update(ledgerAccounts).set({ balance: 1_000 }).where(and(eq(ledgerAccounts.companyId, a.companyId), eq(ledgerAccounts.kind, "reserved")));
        const error = await executeCashOut(tx, { actor: "test", now: new Date() }, { cause: "cash_out_completed", cashOut: processing, facts: { end2endId: "E1", completedAt: new Date() } }).catch((e: unknown) => e);
        const [row] = await tx.select().from(cashOuts).where(eq(cashOuts.id, c.id));
        const events = await tx.select().from(webhookEvents).where(eq(webhookEvents.cashOutId, c.id));
        const journals = await tx.select().from(ledgerJournals).where(eq(ledgerJournals.cashOutId, c.id));
        throw Object.assign(new Error("roll back"), { seen: { error, status: row.status, events: events.length, journals: journals.length } });
      })
      .catch((e: { seen?: unknown }) => e.seen);
    expect(seenProcessing).toEqual({ error: expect.objectContaining({ code: "insufficient_balance" }), status: "processing", events: 2, journals: 1 });
    expect(await writtenFor(c.id)).toEqual(before);
  });

  it("a merchant whose ledger accounts are not there: they are created in the caller's transaction and the move is decided on them", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Saque Sem Contas");
    await db.delete(ledgerAccounts).where(eq(ledgerAccounts.companyId, a.companyId));
    const now = new Date();
    // A cash-out row with no journal behind it (written directly): its reversal finds no reserved money.
    const [row] = await db.insert(cashOuts).overridingSystemValue().values(newCashOut(a, await reserveCashOutId(db), 100, 0, now)).returning();
    await expect(move({ cause: "cash_out_failed", cashOut: row, facts: { failReason: "x" } })).rejects.toMatchObject({ code: "insufficient_balance" });
    expect((await writtenFor(row.id)).row.status).toBe("pending");
    // The accounts were made in the transaction that failed, and went with it.
    expect(await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.companyId, a.companyId))).toEqual([]);
  });
});
