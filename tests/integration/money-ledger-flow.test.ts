import { describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { settleDueCardFunds } from "@/lib/services/transactions/settle-card-funds";
import { executeTransaction } from "@/lib/executor/execute";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";
import { balanceOf, cashOut, expectBooksAgree, paidCard, paidPix, statementOf } from "../helpers/money";

const DAY = 86_400_000;

const refund = (a: CreatedAccount, id: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  call("POST", `/api/v1/transactions/${id}/refund`, { auth: a.secretKey, body, headers });
const move = (a: CreatedAccount, id: number, status: string) =>
  call("PUT", `/api/v1/transactions/${id}/test`, { auth: a.secretKey, body: { status } });

async function eventsOf(transactionId: number) {
  const rows = await getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, transactionId)).orderBy(asc(webhookEvents.id));
  return rows.map((e) => e.status);
}

async function timelineOf(transactionId: number) {
  const rows = await getDb()
    .select()
    .from(transactionStatusChanges)
    .where(eq(transactionStatusChanges.transactionId, transactionId))
    .orderBy(asc(transactionStatusChanges.id));
  return rows.map((r) => [r.fromStatus, r.toStatus, r.cause, r.amount]);
}

describe("a merchant's month: after every step, balance, statement and ledger agree with figures worked out by hand", () => {
  it("pays, refunds in part and in full, takes and wins a card chargeback, settles, cashes out, and is charged back below zero", async () => {
    const m = await createTestAccount("Loja do Mês");
    const expectBalance = async (available: number, waitingFunds: number, reserved = 0) =>
      expect(await expectBooksAgree(m)).toEqual({ available, availableAtPsp: 0, waitingFunds, reserved, total: available + waitingFunds + reserved });

    // 1. PIX A R$ 100,00 paid: fee 0.99% = R$ 0,99.
    const a = await paidPix(m, 10_000);
    await expectBalance(9_901, 0);
    const first = await statementOf(m);
    expect(first.map((e) => [e.type, e.account, e.amount, e.balanceAfter, e.transactionId])).toEqual([
      ["fee", "available", -99, 9_901, a.id],
      ["payment", "available", 10_000, 10_000, a.id],
    ]);
    expect(first[0].description).toBe(`Fee on transaction #${a.id}`);

    // 2. PIX B R$ 50,00 paid: 0.99% is R$ 0,495, rounded half up to R$ 0,50.
    const b = await paidPix(m, 5_000);
    await expectBalance(14_851, 0);

    // 3. Partial refund of R$ 25,00 on A: still paid, refundedAmount grows, no webhook.
    const partial = await refund(m, a.id, { amount: 2_500 });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.data).toMatchObject({ id: a.id, status: "paid", paidAmount: 10_000, refundedAmount: 2_500 });
    await expectBalance(12_351, 0);
    expect(await eventsOf(a.id)).toEqual(["pending", "paid"]);

    // 4. Refund the rest (no amount): R$ 75,00, status refunded, one `refunded` webhook.
    const rest = await refund(m, a.id);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.data).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    await expectBalance(4_851, 0);
    expect(await eventsOf(a.id)).toEqual(["pending", "paid", "refunded"]);
    expect(await timelineOf(a.id)).toEqual([
      [null, "pending", "created", 10_000],
      ["pending", "paid", "payment_received", null],
      ["paid", "paid", "partial_refund", 2_500],
      ["paid", "refunded", "refund", 7_500],
    ]);
    const refunds = await statementOf(m, "type=refund");
    expect(refunds.map((e) => [e.amount, e.transactionId, e.description])).toEqual([
      [-7_500, a.id, `Refund of R$ 75,00 on transaction #${a.id}`],
      [-2_500, a.id, `Refund of R$ 25,00 on transaction #${a.id}`],
    ]);

    // 5. Nothing more to refund on A; B cannot be refunded above what was paid.
    const again = await refund(m, a.id, { amount: 1 });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: "unprocessable" });
    expect(again.body.message).toContain("is refunded");
    const over = await refund(m, b.id, { amount: 5_001 });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe("unprocessable");
    expect(over.body.message).toContain("R$ 50,01 is more than the R$ 50,00 still refundable");
    expect(over.body.errors).toEqual([{ field: "amount", message: "must be at most 5000" }]);
    await expectBalance(4_851, 0);

    // 6. Card C R$ 200,00 approved: fee 3.99% + R$ 0,39 = R$ 8,37; the net waits for settlement.
    const c = await paidCard(m, 20_000);
    await expectBalance(4_851, 19_163);
    const cardEntries = (await statementOf(m)).filter((e) => e.transactionId === c.id);
    expect(cardEntries.map((e) => [e.type, e.account, e.amount, e.balanceAfter])).toEqual([
      ["fee", "waiting_funds", -837, 19_163],
      ["payment", "waiting_funds", 20_000, 20_000],
    ]);

    // 7. Chargeback of C before settlement: the gross R$ 200,00 goes back, first the sale's own
    //    R$ 191,63 from waiting funds, the R$ 8,37 fee (not returned) from available.
    expect((await move(m, c.id, "chargedback")).status).toBe(200);
    await expectBalance(4_014, 0);

    // 8. Protest: no money moves. 9. Protest won: the chargeback comes back where it was taken.
    expect((await move(m, c.id, "in_protest")).status).toBe(200);
    await expectBalance(4_014, 0);
    expect((await move(m, c.id, "paid")).status).toBe(200);
    await expectBalance(4_851, 19_163);
    expect(await eventsOf(c.id)).toEqual(["approved", "chargedback", "in_protest", "approved"]);

    // 10. Partial refund of R$ 10,00 on the unsettled card: taken from its waiting share.
    expect((await refund(m, c.id, { amount: 1_000 })).status).toBe(200);
    await expectBalance(4_851, 18_163);

    // 11. Settlement: nothing before the date, then what is left of the sale becomes available.
    const days = getEnv().cardSettlementDays;
    expect(days).toBeGreaterThan(0);
    expect(await settleDueCardFunds({ now: new Date(Date.now() + (days - 1) * DAY) })).toBe(0);
    await expectBalance(4_851, 18_163);
    expect(await settleDueCardFunds({ now: new Date(Date.now() + (days + 1) * DAY) })).toBe(1);
    await expectBalance(23_014, 0);
    const settlement = (await statementOf(m, "type=settlement")).map((e) => [e.account, e.amount, e.transactionId]);
    expect(settlement).toEqual([
      ["waiting_funds", -18_163, c.id],
      ["available", 18_163, c.id],
    ]);
    expect((await statementOf(m, "type=settlement&account=available")).length).toBe(1);
    expect(await settleDueCardFunds({ now: new Date(Date.now() + (days + 2) * DAY) })).toBe(0);

    // 12. Cash out R$ 200,00: debited at once into reserved, gone when the PSP completes.
    const co = await cashOut(m, { amount: 20_000, pixKey: "11144477735" });
    expect(co.status, co.text).toBe(201);
    await expectBalance(3_014, 0, 20_000);
    await advanceDueCashOuts({ now: new Date(Date.now() + 1) });
    await advanceDueCashOuts({ now: new Date(Date.now() + getEnv().sandboxPspDelayMs + 1000) });
    await expectBalance(3_014, 0, 0);
    const coEntries = (await statementOf(m)).filter((e) => e.cashOutId === co.body.data.id);
    expect(coEntries.map((e) => [e.type, e.account, e.amount, e.balanceAfter])).toEqual([["cash_out", "available", -20_000, 3_014]]);

    // 13. Chargeback of PIX B (R$ 50,00): available goes below zero, the one way it may.
    expect((await move(m, b.id, "chargedback")).status).toBe(200);
    await expectBalance(-1_986, 0);

    // 14. While negative: no cash-out, no refund; a new payment pays the debt down first.
    const blocked = await cashOut(m, { amount: 1, pixKey: "11144477735" });
    expect(blocked.status).toBe(422);
    expect(blocked.body.code).toBe("insufficient_balance");
    const d = await paidPix(m, 1_000); // fee R$ 0,099 -> R$ 0,10
    await expectBalance(-996, 0);
    const noRefund = await refund(m, d.id, { amount: 1 });
    expect(noRefund.status).toBe(422);
    expect(noRefund.body.code).toBe("insufficient_balance");
    expect((await call("GET", `/api/v1/transactions/${d.id}`, { auth: m.secretKey })).body.data.refundedAmount).toBe(0);

    // 15. Protest on B lost: no money moves.
    expect((await move(m, b.id, "in_protest")).status).toBe(200);
    expect((await move(m, b.id, "chargedback")).status).toBe(200);
    await expectBalance(-996, 0);
  });

  it("a card settled at creation (CARD_SETTLEMENT_DAYS=0) lands in available at once, and settlement leaves it alone", async () => {
    const m = await createTestAccount("Loja D+0");
    const now = new Date();
    const t = await insertTransaction(m.companyId, {
      paymentMethod: "credit_card",
      status: "paid",
      amount: 10_000,
      paidAmount: 10_000,
      feeFixed: 39,
      feeEstimated: 438,
      paidAt: now,
      settleAt: null,
      settledAt: now,
    });
    await getDb().transaction((tx) => executeTransaction(tx, { actor: "api", now }, { cause: "created", transaction: t, facts: {} }));
    expect(await expectBooksAgree(m)).toEqual({ available: 9_562, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9_562 });
    await settleDueCardFunds({ now: new Date(Date.now() + 400 * DAY) });
    expect(await expectBooksAgree(m)).toEqual({ available: 9_562, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 9_562 });
  });
});

describe("POST /api/v1/transactions/{id}/refund", () => {
  it("ten concurrent partial refunds never add up to more than was paid", async () => {
    const m = await createTestAccount("Loja Estornos");
    await paidPix(m, 50_000); // a cushion so the balance is not what limits the refunds
    const t = await paidPix(m, 1_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => refund(m, t.id, { amount: 300 })));
    const okCount = results.filter((r) => r.status === 200).length;
    expect(okCount).toBe(3);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(422);
      expect(r.body.code).toBe("unprocessable");
      expect(r.body.message).toMatch(/R\$ 3,00 is more than the R\$ 1,00 still refundable/);
    }
    const read = await call("GET", `/api/v1/transactions/${t.id}`, { auth: m.secretKey });
    expect(read.body.data).toMatchObject({ status: "paid", refundedAmount: 900 });
    // R$ 500,00 - R$ 4,95 fee + R$ 10,00 - R$ 0,10 fee - R$ 9,00 refunded.
    expect((await expectBooksAgree(m)).available).toBe(49_505 + 990 - 900);
    const last = await refund(m, t.id);
    expect(last.body.data).toMatchObject({ status: "refunded", refundedAmount: 1_000 });
    expect((await expectBooksAgree(m)).available).toBe(49_505 + 990 - 1_000);
  });

  it("a full refund not covered by the available balance is a 422 insufficient_balance and changes nothing", async () => {
    const m = await createTestAccount("Loja Sem Saldo");
    const t = await paidPix(m, 1_000); // available R$ 9,90: the fee is kept, so R$ 10,00 is not covered
    const res = await refund(m, t.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "insufficient_balance" });
    const read = await call("GET", `/api/v1/transactions/${t.id}`, { auth: m.secretKey });
    expect(read.body.data).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await timelineOf(t.id)).toHaveLength(2);
    expect(await expectBooksAgree(m)).toMatchObject({ available: 990 });
    expect((await refund(m, t.id, { amount: 990 })).status).toBe(200);
    expect(await expectBooksAgree(m)).toMatchObject({ available: 0 });
  });

  it("honours Idempotency-Key: the retry replays and refunds once", async () => {
    const m = await createTestAccount("Loja Idempotente");
    await paidPix(m, 10_000);
    const t = await paidPix(m, 2_000);
    const headers = { "idempotency-key": "estorno-1" };
    const first = await refund(m, t.id, { amount: 500 }, headers);
    const second = await refund(m, t.id, { amount: 500 }, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    const read = await call("GET", `/api/v1/transactions/${t.id}`, { auth: m.secretKey });
    expect(read.body.data.refundedAmount).toBe(500);
    await expectBooksAgree(m);
  });

  it.each([
    [{ amount: 0 }, 400, "validation_error"],
    [{ amount: -5 }, 400, "validation_error"],
    [{ amount: 1.5 }, 400, "validation_error"],
    [{ amount: "muito" }, 400, "validation_error"],
  ])("refuses %j with %i %s", async (body, status, code) => {
    const m = await createTestAccount("Loja Validação");
    const t = await paidPix(m, 1_000);
    const res = await refund(m, t.id, body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.errors[0].field).toBe("amount");
  });

  it("only a paid transaction of your own account can be refunded", async () => {
    const m = await createTestAccount("Loja Pendente");
    const other = await createTestAccount("Loja Alheia");
    const created = await call("POST", "/api/v1/transactions", {
      auth: m.secretKey,
      body: {
        paymentMethod: "pix",
        amount: 1_000,
        customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
        items: [{ title: "Pedido", unitPrice: 1_000, quantity: 1, tangible: false }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    const pending = await refund(m, id);
    expect(pending.status).toBe(422);
    expect(pending.body.message).toBe(`Only a paid transaction can be refunded; transaction #${id} is pending.`);
    expect((await refund(other, id)).status).toBe(404);
    expect((await refund(m, 999_999_999)).status).toBe(404);
    expect((await call("POST", "/api/v1/transactions/abc/refund", { auth: m.secretKey, body: {} })).status).toBe(404);
  });
});

describe("GET /api/v1/balance/statement", () => {
  it("filters by type, account and dates, pages with an opaque cursor, and refuses bad parameters", async () => {
    const m = await createTestAccount("Loja Extrato");
    await paidPix(m, 3_000);
    await paidPix(m, 4_000);
    await paidCard(m, 5_000);
    const all = await statementOf(m, "", 2);
    expect(all).toHaveLength(6);
    expect(await statementOf(m, "", 100)).toEqual(all);
    expect((await statementOf(m, "type=payment")).map((e) => e.amount)).toEqual([5_000, 4_000, 3_000]);
    expect((await statementOf(m, "type=fee,payment&account=waiting_funds")).map((e) => e.type)).toEqual(["fee", "payment"]);
    expect(await statementOf(m, "from=2000-01-01&to=2000-01-31")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await statementOf(m, `from=${today}&to=${today}`)).toHaveLength(6);

    const page = await call("GET", "/api/v1/balance/statement?limit=4", { auth: m.secretKey });
    expect(page.body.data.data).toHaveLength(4);
    expect(typeof page.body.data.nextCursor).toBe("string");
    const lastPage = await call("GET", `/api/v1/balance/statement?limit=4&cursor=${page.body.data.nextCursor}`, { auth: m.secretKey });
    expect(lastPage.body.data.data).toHaveLength(2);
    expect(lastPage.body.data.nextCursor).toBeNull();

    for (const qs of ["limit=0", "limit=101", "type=bonus", "account=reserved", "from=ontem", "cursor=bm9wZQ"]) {
      const res = await call("GET", `/api/v1/balance/statement?${qs}`, { auth: m.secretKey });
      expect(res.status, qs).toBe(400);
      expect(res.body.errors[0].field).toBe(qs.split("=")[0]);
    }
    const other = await createTestAccount("Loja Vazia");
    expect(await statementOf(other)).toEqual([]);
    expect(await balanceOf(other)).toEqual({ available: 0, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 0 });
  });
});
