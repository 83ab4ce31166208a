/**
 * PUT /api/v1/transactions/{id}/test: sandbox moves through the transition table, each with its
 * timeline entry, ledger journal and outbox event.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { isEnd2EndId } from "@/lib/domain/pix/end2end";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let acct: CreatedAccount;
let other: CreatedAccount;
const HOOK = "http://127.0.0.1:9/never-called"; // no dispatcher runs in this file

async function create(body: unknown, account = acct): Promise<any> {
  const res = await call("POST", "/api/v1/transactions", { auth: account.secretKey, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const boletoCharge = (amount = 5000) => ({
  ...pixCharge(HOOK, amount),
  paymentMethod: "boleto",
});

async function put(id: number, status: unknown, account = acct) {
  return call("PUT", `/api/v1/transactions/${id}/test`, { auth: account.secretKey, body: { status } });
}

async function eventsOf(id: number) {
  return getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id)).orderBy(asc(webhookEvents.id));
}

async function balance(account = acct) {
  const res = await call("GET", "/api/v1/balance", { auth: account.secretKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { available: number };
}

beforeAll(async () => {
  acct = await createTestAccount("Loja Sandbox");
  other = await createTestAccount("Outra Loja");
});

describe("PUT /api/v1/transactions/{id}/test", () => {
  it("pays a PIX: paid with paidAt, paidAmount and a sandbox end2end id, a `paid` event and the payment in the balance", async () => {
    const before = await balance();
    const t = await create(pixCharge(HOOK, 10_000));
    const res = await put(t.id, "paid");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: t.id, status: "paid", paidAmount: 10_000 });
    expect(Date.now() - Date.parse(res.body.data.paidAt)).toBeLessThan(10_000);
    const [row] = await getDb().select().from(transactions).where(eq(transactions.id, t.id));
    expect(isEnd2EndId(row.pixEnd2end!)).toBe(true);
    expect(row.pixEnd2end!.slice(1, 9)).toBe("99999999");

    const events = await eventsOf(t.id);
    expect(events.map((e) => [e.status, e.deliveryState])).toEqual([
      ["pending", "pending"],
      ["paid", "pending"],
    ]);
    expect(events[1].payload).toMatchObject({ status: "paid", paidAmount: 10_000, pix: { end2end: row.pixEnd2end } });
    const after = await balance();
    expect(after.available - before.available).toBe(10_000 - 99); // PIX fee 0.99%
  });

  it("accepts the status in any case and moves a PIX through chargeback, protest and a won protest", async () => {
    const t = await create(pixCharge(HOOK, 2000));
    for (const [status, expected] of [
      ["PAID", "paid"],
      ["chargedback", "chargedback"],
      ["In_Protest", "in_protest"],
      ["paid", "paid"],
      ["chargedback", "chargedback"],
    ] as const) {
      const res = await put(t.id, status);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.status).toBe(expected);
    }
    expect((await eventsOf(t.id)).map((e) => e.status)).toEqual(["pending", "paid", "chargedback", "in_protest", "paid", "chargedback"]);
    const timeline = await getDb()
      .select()
      .from(transactionStatusChanges)
      .where(eq(transactionStatusChanges.transactionId, t.id))
      .orderBy(asc(transactionStatusChanges.id));
    expect(timeline.map((c) => [c.fromStatus, c.toStatus, c.actor])).toEqual([
      [null, "pending", "api"],
      ["pending", "paid", "api"],
      ["paid", "chargedback", "api"],
      ["chargedback", "in_protest", "api"],
      ["in_protest", "paid", "api"],
      ["paid", "chargedback", "api"],
    ]);
  });

  it("protest lost: in_protest -> chargedback", async () => {
    const t = await create(pixCharge(HOOK, 3000));
    for (const s of ["paid", "chargedback", "in_protest", "chargedback"]) expect((await put(t.id, s)).status).toBe(200);
    expect((await eventsOf(t.id)).map((e) => e.status)).toEqual(["pending", "paid", "chargedback", "in_protest", "chargedback"]);
  });

  it("refunds the whole rest through the refund verb, with a `refunded` event", async () => {
    const funding = await create(pixCharge(null, 50_000));
    await put(funding.id, "paid");
    const t = await create(pixCharge(HOOK, 4000));
    await put(t.id, "paid");
    const res = await put(t.id, "refunded");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: "refunded", refundedAmount: 4000 });
    expect((await eventsOf(t.id)).map((e) => e.status)).toEqual(["pending", "paid", "refunded"]);
  });

  it("clears a boleto, and moves one to processing first", async () => {
    const b = await create(boletoCharge(5000));
    expect((await put(b.id, "paid")).body.data).toMatchObject({ status: "paid", paidAmount: 5000 });
    const c = await create(boletoCharge(6000));
    expect((await put(c.id, "processing")).body.data.status).toBe("processing");
    expect((await put(c.id, "paid")).body.data).toMatchObject({ status: "paid", paidAmount: 6000 });
    expect((await eventsOf(c.id)).map((e) => e.status)).toEqual(["pending", "processing", "paid"]);
  });

  it("refuses an expired PIX or boleto with 422 and writes nothing", async () => {
    for (const body of [pixCharge(HOOK, 1500), boletoCharge(1500)]) {
      const t = await create(body);
      await getDb().update(transactions).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(transactions.id, t.id));
      const res = await put(t.id, "paid");
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("unprocessable");
      expect(res.body.message).toMatch(/expired/);
      expect((await eventsOf(t.id)).map((e) => e.status)).toEqual(["pending"]);
    }
  });

  it("refuses a move the table does not allow with 422 naming from and to", async () => {
    const t = await create(pixCharge(HOOK, 1500));
    for (const [to, from] of [
      ["refunded", "pending"],
      ["chargedback", "pending"],
      ["in_protest", "pending"],
      ["refused", "pending"],
    ]) {
      const res = await put(t.id, to);
      expect(res.status, to).toBe(422);
      expect(res.body.message).toContain(`from ${from} to ${to}`);
    }
    await put(t.id, "paid");
    const again = await put(t.id, "paid");
    expect(again.status).toBe(422);
    expect(again.body.message).toContain("from paid to paid");
    const pending = await put(t.id, "pending");
    expect(pending.status).toBe(422);
    expect(pending.body.message).toContain("from paid to pending");
    expect((await eventsOf(t.id)).map((e) => e.status)).toEqual(["pending", "paid"]);
  });

  it("validates the body: 400 for a missing or unknown status", async () => {
    const t = await create(pixCharge(HOOK, 1500));
    for (const body of [{}, { status: "settled" }, { status: 3 }]) {
      const res = await call("PUT", `/api/v1/transactions/${t.id}/test`, { auth: acct.secretKey, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_error");
      expect(res.body.errors[0].field).toBe("status");
    }
  });

  it("is only for the account's own test transactions: 404 for another account's, 403 for a live one", async () => {
    const t = await create(pixCharge(HOOK, 1500));
    const res = await put(t.id, "paid", other);
    expect(res.status).toBe(404);
    expect((await put(99_999_999, "paid")).status).toBe(404);
    await getDb().update(transactions).set({ livemode: true }).where(eq(transactions.id, t.id));
    const live = await put(t.id, "paid");
    expect(live.status).toBe(403);
    expect(live.body.code).toBe("forbidden");
  });
});
