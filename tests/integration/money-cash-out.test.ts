import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db/rows";
import { getDb } from "@/lib/db/client";
import { cashOuts, companies, webhookEvents } from "@/lib/db/schema";
import { DEFAULT_FEE_PLAN } from "@/lib/domain/fees";
import { isEnd2EndId } from "@/lib/domain/pix/end2end";
import { getEnv } from "@/lib/env";
import { checkLedger } from "@/lib/ledger/check";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { moveCashOutsInOneStatement } from "@/lib/executor/cash-out-in-one-statement";
import { executeCashOutMoves } from "@/lib/executor/execute";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { balanceOf, cashOut, expectBooksAgree, paidPix, statementOf } from "../helpers/money";

const later = (ms: number) => new Date(Date.now() + ms);
const pspDelay = () => getEnv().sandboxPspDelayMs;

/** Steps every cash-out earlier tests left due to its end, so that a test's claims hold only its own. */
async function drainCashOutJob() {
  await advanceDueCashOuts({ now: later(0), limit: 10_000 });
  await advanceDueCashOuts({ now: later(pspDelay() + 1000), limit: 10_000 });
}

async function cashOutEvents(cashOutId: number) {
  return getDb().select().from(webhookEvents).where(eq(webhookEvents.cashOutId, cashOutId)).orderBy(webhookEvents.id);
}

describe("50 concurrent cash-outs against a balance that covers 19 of them", () => {
  it("exactly 19 succeed with 201, 31 get 422 insufficient_balance, and the balance is exact", async () => {
    const a = await createTestAccount("Loja Concorrência");
    // PIX R$ 200,00 paid: fee 0.99% = R$ 1,98, available R$ 198,02.
    await paidPix(a, 20_000);
    expect(await balanceOf(a)).toEqual({ available: 19_802, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 19_802 });

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => cashOut(a, { amount: 1000, pixKey: "maria@example.com", externalRef: `co-${i}` })),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(created).toHaveLength(19);
    expect(refused).toHaveLength(31);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ success: false, status: 422, code: "insufficient_balance" });
      expect(r.body.message).toContain("R$ 10,00");
    }
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(19);

    // R$ 198,02 - 19 x R$ 10,00 = R$ 8,02 available; R$ 190,00 reserved while the PSP works.
    expect(await expectBooksAgree(a)).toEqual({ available: 802, availableAtPsp: 0, waitingFunds: 0, reserved: 19_000, total: 19_802 });
    const list = await call("GET", "/api/v1/cashOut?limit=100", { auth: a.secretKey });
    expect(list.body.data.pagination.total).toBe(19);

    // The PSP finishes them all: the money leaves, nothing comes back.
    await advanceDueCashOuts({ now: later(0), limit: 1000 });
    await advanceDueCashOuts({ now: later(pspDelay() + 1000), limit: 1000 });
    expect(await expectBooksAgree(a)).toEqual({ available: 802, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 802 });
    const done = await call("GET", "/api/v1/cashOut?status=completed&limit=100", { auth: a.secretKey });
    expect(done.body.data.pagination.total).toBe(19);
  });

  it("with a cash-out fee, amount + fee is what is debited and guarded", async () => {
    const a = await createTestAccount("Loja Com Tarifa");
    await getDb()
      .update(companies)
      .set({ feePlan: { ...DEFAULT_FEE_PLAN, cashOut: { fixed: 50 } } })
      .where(eq(companies.id, a.companyId));
    // PIX R$ 100,00: fee R$ 0,99, available R$ 99,01; each cash-out takes R$ 10,00 + R$ 0,50.
    await paidPix(a, 10_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => cashOut(a, { amount: 1000, pixKey: "+5511987654321" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(9);
    expect(results.filter((r) => r.status === 422 && r.body.code === "insufficient_balance")).toHaveLength(11);
    expect(results.find((r) => r.status === 201)!.body.data).toMatchObject({ amount: 1000, fee: 50 });
    expect(await expectBooksAgree(a)).toEqual({ available: 451, availableAtPsp: 0, waitingFunds: 0, reserved: 9450, total: 9901 });
    const fees = await statementOf(a, "type=cash_out_fee");
    expect(fees).toHaveLength(9);
    expect(fees.every((e) => e.amount === -50 && e.description.startsWith("Fee on PIX cash-out #"))).toBe(true);
  });
});

describe("the cash-out job's pass", () => {
  it("steps more cash-outs than one claim locks, each with its own event, and stops at its limit", async () => {
    // What earlier tests left due finishes first: below, only this account's cash-outs are due.
    await drainCashOutJob();
    expect(pspDelay()).toBeGreaterThan(0); // else a processing cash-out would be due again at once
    const a = await createTestAccount("Loja Lote");
    await paidPix(a, 100_000);
    const ids: number[] = [];
    for (let i = 0; i < 45; i++) {
      const res = await cashOut(a, { amount: 100, pixKey: "maria@example.com" });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.data.id);
    }
    const statusOf = async () => {
      const rows = await getDb().select({ id: cashOuts.id, status: cashOuts.status }).from(cashOuts).where(eq(cashOuts.companyId, a.companyId));
      return new Map(rows.map((r) => [r.id, r.status]));
    };

    // 45 due, a limit of 43: three claims (20, 20, 3), oldest first.
    expect(await advanceDueCashOuts({ now: later(0), limit: 43 })).toBe(43);
    let statuses = await statusOf();
    expect(ids.map((id) => statuses.get(id))).toEqual([...Array(43).fill("processing"), "pending", "pending"]);
    // Each claim's steps were one transaction: the rows it moved carry its transaction id (xmin).
    const xmins = rowsOf<{ xmin: string }>(await getDb().execute(sql`select xmin::text as xmin from cash_outs where company_id = ${a.companyId} and status = 'processing' order by id`));
    const claims = [...new Set(xmins.map((r) => r.xmin))].map((x) => xmins.filter((r) => r.xmin === x).length);
    expect(claims).toEqual([20, 20, 3]);
    expect(await advanceDueCashOuts({ now: later(0) })).toBe(2);
    for (const id of ids) expect((await cashOutEvents(id)).map((e) => e.status)).toEqual(["pending", "processing"]);

    expect(await advanceDueCashOuts({ now: later(pspDelay() + 1000) })).toBe(45);
    statuses = await statusOf();
    expect(ids.every((id) => statuses.get(id) === "completed")).toBe(true);
    for (const id of ids) expect((await cashOutEvents(id)).map((e) => e.status)).toEqual(["pending", "processing", "completed"]);
    expect(await advanceDueCashOuts({ now: later(pspDelay() + 1000) })).toBe(0);
    const fee = (await call("GET", `/api/v1/cashOut/${ids[0]}`, { auth: a.secretKey })).body.data.fee as number;
    expect(await expectBooksAgree(a)).toEqual({ available: 100_000 - 990 - 45 * (100 + fee), availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 100_000 - 990 - 45 * (100 + fee) });
  });
});

describe("a claim's moves in one statement", () => {
  const rowsOfCompanies = async (ids: number[]) =>
    rowsOf<{ id: string; status: string; xmin: string; cmin: string }>(
      await getDb().execute(sql`select id::text as id, status, xmin::text as xmin, cmin::text as cmin from cash_outs where company_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by id`),
    );

  it("moves two merchants' cash-outs, a failing one among them, by one statement per claim, and the books agree", async () => {
    await drainCashOutJob();
    const a = await createTestAccount("Loja Lote A");
    const b = await createTestAccount("Loja Lote B");
    await paidPix(a, 10_000);
    await paidPix(b, 10_000);
    const ids: number[] = [];
    for (const [who, key] of [[a, "maria@example.com"], [b, "maria@example.com"], [a, "fail@arara.dev"], [a, "+5511987654321"], [b, "joao@example.com"]] as const) {
      const res = await cashOut(who, { amount: 1000, pixKey: key, postbackUrl: "https://example.com/hook" });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.data.id);
    }
    const fee = (await call("GET", `/api/v1/cashOut/${ids[0]}`, { auth: a.secretKey })).body.data.fee as number;
    const before = rowsOfCompanies.bind(null, [a.companyId, b.companyId]);

    // pending -> processing: one claim, and every row it moved was written by the same statement
    // (one transaction id and one command id), with one event each.
    expect(await advanceDueCashOuts({ now: later(0) })).toBe(5);
    let rows = await before();
    expect(rows.map((r) => r.status)).toEqual(Array(5).fill("processing"));
    expect(new Set(rows.map((r) => `${r.xmin}/${r.cmin}`)).size).toBe(1);

    // processing -> completed (four) and failed (the sandbox's failing key): one statement again, the
    // journals of both merchants and the platform's accounts moved together.
    expect(await advanceDueCashOuts({ now: later(pspDelay() + 1000) })).toBe(5);
    rows = await before();
    expect(rows.map((r) => r.status)).toEqual(["completed", "completed", "failed", "completed", "completed"]);
    expect(new Set(rows.map((r) => `${r.xmin}/${r.cmin}`)).size).toBe(1);
    for (const [i, id] of ids.entries()) {
      const events = await cashOutEvents(id);
      expect(events.map((e) => e.status)).toEqual(["pending", "processing", i === 2 ? "failed" : "completed"]);
      expect(events.every((e) => e.deliveryState === "pending" || e.deliveryState === "delivered" || e.deliveryState === "retrying")).toBe(true);
      expect((events[2].payload as { data?: { id?: number } }).data?.id ?? (events[2].payload as { id?: number }).id).toBe(id);
    }
    const done = (await call("GET", `/api/v1/cashOut/${ids[1]}`, { auth: b.secretKey })).body.data;
    expect(isEnd2EndId(done.end2EndId ?? done.end2endId)).toBe(true);
    const failed = (await call("GET", `/api/v1/cashOut/${ids[2]}`, { auth: a.secretKey })).body.data;
    expect(failed.status).toBe("failed");

    // Paid R$ 100,00 each (R$ 0,99 fee): A sent two and got the failed one back, B sent two.
    expect(await expectBooksAgree(a)).toEqual({ available: 9901 - 2 * (1000 + fee), availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9901 - 2 * (1000 + fee) });
    expect(await expectBooksAgree(b)).toEqual({ available: 9901 - 2 * (1000 + fee), availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9901 - 2 * (1000 + fee) });
    const reversal = (await statementOf(a, "type=cash_out_reversal")).map((e) => e.amount);
    expect(reversal).toEqual([1000 + fee]);
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });

  it("four passes racing over three merchants' cash-outs step each once, without a deadlock, and the books agree", async () => {
    await drainCashOutJob();
    const shops = [await createTestAccount("Loja Corrida A"), await createTestAccount("Loja Corrida B"), await createTestAccount("Loja Corrida C")];
    for (const shop of shops) await paidPix(shop, 100_000);
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await cashOut(shops[i % 3], { amount: 100 + i, pixKey: i % 10 === 0 ? "fail@arara.dev" : "maria@example.com" });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.data.id);
    }
    // On PostgreSQL the passes run on connections of their own: their claims skip each other's rows and
    // their statements lock the platform's accounts, which all of them move, in the one order.
    const race = async (now: Date) => (await Promise.all(Array.from({ length: 4 }, () => advanceDueCashOuts({ now, limit: 1000 })))).reduce((x, y) => x + y, 0);
    expect(await race(later(0))).toBe(60);
    expect(await race(later(pspDelay() + 1000))).toBe(60);
    for (const [i, id] of ids.entries()) {
      expect((await cashOutEvents(id)).map((e) => e.status)).toEqual(["pending", "processing", i % 10 === 0 ? "failed" : "completed"]);
    }
    const fee = (await call("GET", `/api/v1/cashOut/${ids[0]}`, { auth: shops[0].secretKey })).body.data.fee as number;
    for (const [s, shop] of shops.entries()) {
      const sent = ids.map((_, i) => i).filter((i) => i % 3 === s && i % 10 !== 0).reduce((sum, i) => sum + 100 + i + fee, 0);
      const available = 100_000 - 990 - sent;
      expect(await expectBooksAgree(shop)).toEqual({ available, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: available });
    }
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });

  it("writes nothing when one subject is not as read, with one statement text for every size, and the claim's moves then fail together", async () => {
    await drainCashOutJob();
    const a = await createTestAccount("Loja Lote Velho");
    await paidPix(a, 10_000);
    for (let i = 0; i < 2; i++) expect((await cashOut(a, { amount: 1000, pixKey: "maria@example.com", postbackUrl: "https://example.com/hook" })).status).toBe(201);
    const [first, second] = await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId)).orderBy(cashOuts.id);
    const now = new Date();
    const moveOf = (row: typeof first, status: string, to: string) => {
      const patch = { nextStepAt: later(5000) };
      return { cashOut: { ...row, status }, patch, after: { ...row, ...patch, status: to, updatedAt: now }, journal: null };
    };
    const eventsBefore = (await cashOutEvents(first.id)).length + (await cashOutEvents(second.id)).length;

    // The second is read as processing while it is pending: the one statement writes nothing.
    await getDb().transaction(async (tx) => {
      expect(await moveCashOutsInOneStatement(tx, { now }, [moveOf(first, "pending", "processing"), moveOf(second, "processing", "processing")])).toBeNull();
    });
    // Batches of other sizes run the same statement text (the moves go as one JSON parameter): one
    // prepared statement, not one per size.
    const more = [];
    for (let i = 0; i < 2; i++) {
      const res = await cashOut(a, { amount: 100, pixKey: "maria@example.com" });
      expect(res.status).toBe(201);
      more.push((await getDb().select().from(cashOuts).where(eq(cashOuts.id, res.body.data.id)))[0]);
    }
    const rows = [first, second, ...more];
    await getDb().transaction(async (tx) => {
      for (const size of [2, 3, 4, 2, 3, 4]) {
        expect(await moveCashOutsInOneStatement(tx, { now }, rows.slice(0, size).map((r) => moveOf(r, "processing", "processing")))).toBeNull();
      }
      const prepared = rowsOf<{ statement: string }>(await tx.execute(sql`select statement from pg_prepared_statements where statement like '%jsonb_to_recordset%' and statement like '%update "cash_outs"%' and statement not like '%ledger_journals%'`));
      expect(prepared.map((p) => p.statement)).toHaveLength(1);
    });
    // Through the executor, the moves are tried one at a time: the stale one is a 409 and the claim's
    // transaction rolls back, the first one's move with it.
    await expect(getDb().transaction(async (tx) => {
      await executeCashOutMoves(tx, { actor: "system", now }, [
        { cause: "cash_out_processing", cashOut: first, facts: { nextStepAt: later(5000) } },
        { cause: "cash_out_completed", cashOut: { ...second, status: "processing" }, facts: { end2endId: "E99999999202611271200abcdefghijk", completedAt: now } },
      ]);
    })).rejects.toMatchObject({ code: "conflict" });
    const after = await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId)).orderBy(cashOuts.id);
    expect((await cashOutEvents(first.id)).length + (await cashOutEvents(second.id)).length).toBe(eventsBefore);
    expect(after.map((r) => r.status)).toEqual(["pending", "pending", "pending", "pending"]);
    const fee = after[0].fee as number;
    expect(await expectBooksAgree(a)).toEqual({ available: 9901 - 2 * (1000 + fee) - 2 * (100 + fee), availableAtPsp: 0, waitingFunds: 0, reserved: 2000 + 200 + 4 * fee, total: 9901 });
  });

  it("writes nothing when a guarded debit would overdraw, counting the deepest point of a merchant's moves across the claim", async () => {
    await drainCashOutJob();
    const a = await createTestAccount("Loja Guarda A");
    const b = await createTestAccount("Loja Guarda B");
    await paidPix(a, 10_000);
    await paidPix(b, 10_000);
    for (const who of [a, b, a]) expect((await cashOut(who, { amount: 1000, pixKey: "maria@example.com" })).status).toBe(201);
    expect(await advanceDueCashOuts({ now: later(0) })).toBe(3);
    const rows = await getDb().select().from(cashOuts).where(sql`${cashOuts.companyId} in (${a.companyId}, ${b.companyId})`).orderBy(cashOuts.id);
    expect(rows.map((r) => r.status)).toEqual(["processing", "processing", "processing"]);
    const each = 1000 + (rows[0].fee as number);
    const now = new Date();
    const complete = () =>
      getDb().transaction((tx) =>
        executeCashOutMoves(
          tx,
          { actor: "system", now },
          rows.map((r, i) => ({ cause: "cash_out_completed" as const, cashOut: r, facts: { end2endId: `E99999999202611271200guarda0000${i}`, completedAt: now } })),
        ),
      );
    const reserved = async (companyId: number) =>
      Number(rowsOf<{ balance: string }>(await getDb().execute(sql`select balance::text as balance from ledger_accounts where company_id = ${companyId} and kind = 'reserved'`))[0].balance);
    const setReserved = (companyId: number, balance: number) =>
      getDb().execute(sql`update ledger_accounts set balance = ${balance} where company_id = ${companyId} and kind = 'reserved'`);
    expect(await reserved(a.companyId)).toBe(2 * each);
    expect(await reserved(b.companyId)).toBe(each);
    const journals = async () => Number(rowsOf<{ n: string }>(await getDb().execute(sql`select count(*)::text as n from ledger_journals`))[0].n);
    const eventsOf = async () => (await Promise.all(rows.map((r) => cashOutEvents(r.id)))).map((e) => e.length);
    const journalsBefore = await journals();
    const eventsBefore = await eventsOf();
    const unchanged = async () => {
      const now = await getDb().select().from(cashOuts).where(sql`${cashOuts.companyId} in (${a.companyId}, ${b.companyId})`).orderBy(cashOuts.id);
      expect(now.map((r) => r.status)).toEqual(["processing", "processing", "processing"]);
      expect(await journals()).toBe(journalsBefore);
      expect(await eventsOf()).toEqual(eventsBefore);
    };
    try {
      // B's reserve is one centavo short of its one completion (a state the books never reach; set by
      // hand here): the claim's statement writes nothing, the moves one at a time refuse it, and the
      // claim's transaction takes A's moves back with it.
      await setReserved(b.companyId, each - 1);
      await expect(complete()).rejects.toMatchObject({ code: "insufficient_balance" });
      await unchanged();
      expect(await reserved(a.companyId)).toBe(2 * each);
      // A's reserve covers each of its two completions alone but not both: the guard is the deepest
      // point A's debits reach across the claim, not each journal's own.
      await setReserved(b.companyId, each);
      await setReserved(a.companyId, 2 * each - 1);
      await expect(complete()).rejects.toMatchObject({ code: "insufficient_balance" });
      await unchanged();
    } finally {
      await setReserved(a.companyId, 2 * each);
      await setReserved(b.companyId, each);
    }
    // The books as they are: the same claim completes all three, in one statement.
    await complete();
    const done = await rowsOfCompanies([a.companyId, b.companyId]);
    expect(done.map((r) => r.status)).toEqual(["completed", "completed", "completed"]);
    expect(new Set(done.map((r) => `${r.xmin}/${r.cmin}`)).size).toBe(1);
    expect(await expectBooksAgree(a)).toEqual({ available: 9901 - 2 * each, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9901 - 2 * each });
    expect(await expectBooksAgree(b)).toEqual({ available: 9901 - each, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9901 - each });
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });
});

describe("POST /api/v1/cashOut/request", () => {
  let a: CreatedAccount;
  let other: CreatedAccount;
  beforeAll(async () => {
    a = await createTestAccount("Loja Saque");
    other = await createTestAccount("Loja Outra");
    await paidPix(a, 100_000); // available R$ 990,10
  });

  it("returns the cash-out, pending, with the key in DICT form; GET reads it; another account cannot", async () => {
    const res = await cashOut(a, {
      amount: 2500,
      pixKey: "Maria.Silva@Example.com",
      pixKeyType: "EMAIL",
      description: "Saque semanal",
      externalRef: "saque-1",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ success: true, status: 201 });
    const c = res.body.data;
    expect(c).toEqual({
      id: expect.any(Number),
      status: "pending",
      amount: 2500,
      fee: 0,
      pixKey: "maria.silva@example.com",
      pixKeyType: "email",
      source: "arara",
      end2endId: null,
      failReason: null,
      description: "Saque semanal",
      externalRef: "saque-1",
      createdAt: expect.any(String),
      completedAt: null,
      // Why a cash-out sent through the merchant's PSP waits on it (docs/api.md): nothing for the sandbox's.
      waiting: null,
    });
    const read = await call("GET", `/api/v1/cashOut/${c.id}`, { auth: a.secretKey });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(c);
    const foreign = await call("GET", `/api/v1/cashOut/${c.id}`, { auth: other.secretKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await call("GET", "/api/v1/cashOut/abc", { auth: a.secretKey })).status).toBe(404);
  });

  it.each([
    // [pixKey, pixKeyType, stored key, stored type]
    ["111.444.777-35", undefined, "11144477735", "cpf"],
    ["11144477735", "CPF", "11144477735", "cpf"],
    ["11.222.333/0001-81", undefined, "11222333000181", "cnpj"],
    ["11222333000181", "Cnpj", "11222333000181", "cnpj"],
    ["fulano@banco.com.br", undefined, "fulano@banco.com.br", "email"],
    ["+55 (11) 98765-4321", undefined, "+5511987654321", "phone"],
    ["11987654321", "phone", "+5511987654321", "phone"],
    ["5511987654321", "telefone", "+5511987654321", "phone"],
    ["123E4567-E89B-42D3-A456-426614174000", undefined, "123e4567-e89b-42d3-a456-426614174000", "evp"],
    ["123e4567-e89b-42d3-a456-426614174000", "random", "123e4567-e89b-42d3-a456-426614174000", "evp"],
  ])("accepts key %s (type %s) as %s (%s)", async (pixKey, pixKeyType, key, type) => {
    const res = await cashOut(a, { amount: 1, pixKey, ...(pixKeyType ? { pixKeyType } : {}) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ pixKey: key, pixKeyType: type });
  });

  it.each([
    // [pixKey, pixKeyType, field]
    ["111.444.777-36", undefined, "pixKey"], // written as a CPF, check digit wrong
    ["11144477736", undefined, "pixKey"], // bare 11 digits: a CPF by shape, with wrong check digits
    ["11987654321", undefined, "pixKey"], // bare 11 digits are a CPF by shape even when they spell a mobile: +55 makes a phone
    ["1132654321", undefined, "pixKey"], // a landline guessed as a phone: the DICT has no such keys
    ["11144477736", "cpf", "pixKey"],
    ["11222333000182", "cnpj", "pixKey"],
    ["11144477735", "cnpj", "pixKey"],
    ["fulano@", "email", "pixKey"],
    ["fulano@banco.com.br", "cpf", "pixKey"],
    ["+1 415 555 0100", "phone", "pixKey"],
    ["+55 (00) 98765-4321", undefined, "pixKey"],
    ["not-a-uuid", "evp", "pixKey"],
    ["chave qualquer", undefined, "pixKey"],
    ["", undefined, "pixKey"],
    ["11144477735", "pix", "pixKeyType"],
    // A valid CPF (119.444.777-56) written with other separators: its digits spell +55 11 94447-7756.
    ["119 444 777 56", undefined, "pixKey"],
    ["119.444.777 56", undefined, "pixKey"],
    // CNPJ 05.511.912/0001-41 sent as a JSON number: 5511912000141 would read as a phone.
    [5511912000141, undefined, "pixKey"],
  ] as [string | number, string | undefined, string][])("refuses key %j (type %s) with a 400 on %s, and debits nothing", async (pixKey, pixKeyType, field) => {
    const before = await balanceOf(a);
    const res = await cashOut(a, { amount: 100, pixKey, ...(pixKeyType ? { pixKeyType } : {}) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors[0].field).toBe(field);
    expect(await balanceOf(a)).toEqual(before);
  });

  it.each([
    [{ pixKey: "11144477735" }, "amount"],
    [{ amount: 0, pixKey: "11144477735" }, "amount"],
    [{ amount: -100, pixKey: "11144477735" }, "amount"],
    [{ amount: 10.5, pixKey: "11144477735" }, "amount"],
    [{ amount: "dez", pixKey: "11144477735" }, "amount"],
    [{ amount: 100_000_001, pixKey: "11144477735" }, "amount"],
    [{ amount: 100 }, "pixKey"],
    [{ amount: 100, pixKey: "11144477735", postbackUrl: "ftp://example.com/hook" }, "postbackUrl"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const res = await cashOut(a, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("takes a key sent as a JSON number when its type is said, and checks it as that type", async () => {
    const cpf = await cashOut(a, { amount: 1, pixKey: 11144477735, pixKeyType: "cpf" });
    expect(cpf.status, cpf.text).toBe(201);
    expect(cpf.body.data).toMatchObject({ pixKey: "11144477735", pixKeyType: "cpf" });
    // The CNPJ's leading zero is gone: 13 digits are no CNPJ, and the request says so.
    const cnpj = await cashOut(a, { amount: 1, pixKey: 5511912000141, pixKeyType: "cnpj" });
    expect(cnpj.status, cnpj.text).toBe(400);
    expect(cnpj.body.errors[0].field).toBe("pixKey");
  });

  it("takes the amount as a numeric string, like other gateways' clients send it", async () => {
    const res = await cashOut(a, { amount: "150", pixKey: "11144477735" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.amount).toBe(150);
  });

  it("more than the available balance is a 422 insufficient_balance and debits nothing", async () => {
    const before = await balanceOf(a);
    const res = await cashOut(a, { amount: before.available + 1, pixKey: "11144477735" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("insufficient_balance");
    expect(await balanceOf(a)).toEqual(before);
  });

  it("honours Idempotency-Key: a retry replays the first cash-out and debits once; another body is a 409", async () => {
    const before = await balanceOf(a);
    const headers = { "idempotency-key": "saque-idem-1" };
    const first = await cashOut(a, { amount: 700, pixKey: "11144477735" }, headers);
    const again = await cashOut(a, { amount: 700, pixKey: "11144477735" }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await balanceOf(a)).available).toBe(before.available - 700);
    const different = await cashOut(a, { amount: 701, pixKey: "11144477735" }, headers);
    expect(different.status).toBe(409);
    expect(different.body.code).toBe("idempotency_conflict");
  });

  it("the sandbox PSP completes it: pending -> processing -> completed, with an end-to-end id and a webhook each", async () => {
    const res = await cashOut(a, { amount: 5000, pixKey: "11144477735", postbackUrl: "https://merchant.example/hooks/pix" });
    const id = res.body.data.id;
    const before = await balanceOf(a);

    await advanceDueCashOuts({ now: later(0) });
    const processing = await call("GET", `/api/v1/cashOut/${id}`, { auth: a.secretKey });
    expect(processing.body.data).toMatchObject({ status: "processing", end2endId: null, completedAt: null });

    // Not before SANDBOX_PSP_DELAY_MS.
    if (pspDelay() > 0) {
      await advanceDueCashOuts({ now: later(0) });
      expect((await call("GET", `/api/v1/cashOut/${id}`, { auth: a.secretKey })).body.data.status).toBe("processing");
    }
    await advanceDueCashOuts({ now: later(pspDelay() + 1000) });
    const done = (await call("GET", `/api/v1/cashOut/${id}`, { auth: a.secretKey })).body.data;
    expect(done.status).toBe("completed");
    expect(isEnd2EndId(done.end2endId)).toBe(true);
    expect(done.completedAt).not.toBeNull();
    expect(done.failReason).toBeNull();

    // The money was debited at request; completion only empties reserved (this step also
    // completed the earlier requests of this account).
    const after = await expectBooksAgree(a);
    expect(after).toEqual({ available: before.available, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: before.available });

    const events = await cashOutEvents(id);
    expect(events.map((e) => e.status)).toEqual(["pending", "processing", "completed"]);
    for (const e of events) {
      expect(e).toMatchObject({ type: "cash_out", url: "https://merchant.example/hooks/pix", deliveryState: "pending" });
      expect(e.payload).toMatchObject({ id, status: e.status, amount: 5000 });
    }
    expect(events[2].payload).toMatchObject({ end2endId: done.end2endId });
  });

  it.each([
    ["fail@arara.dev", "email"],
    ["FA11ED00-0000-4000-8000-000000000000", "evp"],
  ])("the test key %s fails and the amount and fee come back (cash_out_reversal)", async (pixKey) => {
    await getDb()
      .update(companies)
      .set({ feePlan: { ...DEFAULT_FEE_PLAN, cashOut: { fixed: 35 } } })
      .where(eq(companies.id, a.companyId));
    const before = await balanceOf(a);
    const res = await cashOut(a, { amount: 1200, pixKey, postbackUrl: "https://merchant.example/hooks/pix" });
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.id;
    expect(res.body.data.fee).toBe(35);
    expect((await balanceOf(a)).available).toBe(before.available - 1235);

    await advanceDueCashOuts({ now: later(0) });
    await advanceDueCashOuts({ now: later(pspDelay() + 1000) });
    const failed = (await call("GET", `/api/v1/cashOut/${id}`, { auth: a.secretKey })).body.data;
    expect(failed).toMatchObject({ status: "failed", end2endId: null, completedAt: null });
    expect(failed.failReason).toMatch(/sandbox test key/);

    expect(await expectBooksAgree(a)).toEqual(before);
    const entries = (await statementOf(a)).filter((e) => e.cashOutId === id);
    expect(entries.map((e) => [e.type, e.amount])).toEqual([
      ["cash_out_reversal", 1235],
      ["cash_out_fee", -35],
      ["cash_out", -1200],
    ]);
    expect((await cashOutEvents(id)).map((e) => e.status)).toEqual(["pending", "processing", "failed"]);
    await getDb().update(companies).set({ feePlan: DEFAULT_FEE_PLAN }).where(eq(companies.id, a.companyId));
  });

  it("lists newest first with page, limit and filters", async () => {
    const all = await call("GET", "/api/v1/cashOut?limit=100", { auth: a.secretKey });
    expect(all.status).toBe(200);
    const ids = all.body.data.data.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    const page2 = await call("GET", "/api/v1/cashOut?limit=3&page=2", { auth: a.secretKey });
    expect(page2.body.data.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(3, 6));
    expect(page2.body.data.pagination).toMatchObject({ page: 2, limit: 3, total: ids.length });
    // A page past the end has no row to carry the count: the total is still there.
    const past = await call("GET", `/api/v1/cashOut?limit=3&page=${Math.ceil(ids.length / 3) + 2}`, { auth: a.secretKey });
    expect(past.body.data.data).toEqual([]);
    expect(past.body.data.pagination).toMatchObject({ total: ids.length });
    // Each row is the cash-out as GET reads it.
    expect(all.body.data.data[0]).toEqual((await call("GET", `/api/v1/cashOut/${ids[0]}`, { auth: a.secretKey })).body.data);
    const byRef = await call("GET", "/api/v1/cashOut?externalRef=saque-1", { auth: a.secretKey });
    expect(byRef.body.data.data).toHaveLength(1);
    const failed = await call("GET", "/api/v1/cashOut?status=failed", { auth: a.secretKey });
    expect(failed.body.data.pagination.total).toBe(2);
    expect((await call("GET", "/api/v1/cashOut?status=sent", { auth: a.secretKey })).status).toBe(400);
    expect((await call("GET", "/api/v1/cashOut", { auth: other.secretKey })).body.data.pagination.total).toBe(0);
  });

  it("the whole database passes the ledger check", async () => {
    const r = await checkLedger(getDb());
    expect(r.violations).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
