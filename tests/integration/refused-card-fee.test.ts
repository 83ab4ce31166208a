/**
 * A refused card moved no money: no fee was charged and nothing is net. Its creation response, its
 * read on /v1, and its notifications (both dialects) say fee 0 and netAmount 0, while a paid card of
 * the same amount keeps reporting the plan's fee; no ledger entry exists for the refused one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings, webhookEvents } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { cardBody } from "../helpers/cash-in";

const DECLINED = "4000000000000002";
const APPROVED = "4242424242424242";
// R$ 50,00 on the default plan: 3.99% = 199.5 -> 200, + R$ 0,39 = 239.
const AMOUNT = 5_000;
const PLAN_FEE = 239;

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Recusas");
});

const order = { amount: AMOUNT, items: [{ title: "Curso", unitPrice: AMOUNT, quantity: 1, tangible: false }], postbackUrl: "http://127.0.0.1:9/hook" };
const eventsOf = (id: number) => getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id)).orderBy(webhookEvents.id);
const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("the fee of a refused card", () => {
  it("is 0 with nothing net in the creation response, the /v1 read and the notification; no ledger entry", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: await cardBody(a.publicKey, DECLINED, order) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "refused", refusedReason: "card_declined", fees: 0 });

    const v1 = await call("GET", `/v1/transactions/${res.body.data.id}`, { auth: basic(`${a.secretKey}:x`) });
    expect(v1.status).toBe(200);
    expect(v1.body.fees ?? v1.body.data?.fees).toBe(0);
    expect(v1.body.fee ?? v1.body.data?.fee).toEqual({ netAmount: 0, fixedAmount: 0, estimatedFee: 0 });

    const [event] = await eventsOf(res.body.data.id);
    expect(event.status).toBe("refused");
    expect(JSON.stringify(event.payload)).toContain('"fee":{"netAmount":0,"fixedAmount":0,"estimatedFee":0}');

    expect(await getDb().select().from(ledgerJournals).where(eq(ledgerJournals.transactionId, res.body.data.id))).toEqual([]);
  });

  it("on /v1 too, at creation and in its notification", async () => {
    const res = await call("POST", "/v1/transactions", { auth: basic(`${a.secretKey}:x`), body: await cardBody(a.publicKey, DECLINED, order) });
    expect(res.status).toBe(201);
    const body = res.body.data ?? res.body;
    expect(body).toMatchObject({ status: "refused", fees: 0, fee: { netAmount: 0, fixedAmount: 0, estimatedFee: 0 } });
    const [event] = await eventsOf(body.id);
    expect(JSON.stringify(event.payload)).toContain('"fee":{"netAmount":0,"fixedAmount":0,"estimatedFee":0}');
  });

  it("leaves a paid card's fee as the plan says", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: await cardBody(a.publicKey, APPROVED, order) });
    expect(res.body.data).toMatchObject({ status: "paid", fees: PLAN_FEE });
    const v1 = await call("GET", `/v1/transactions/${res.body.data.id}`, { auth: basic(`${a.secretKey}:x`) });
    expect(v1.body.fee ?? v1.body.data?.fee).toEqual({ netAmount: AMOUNT - PLAN_FEE, fixedAmount: 39, estimatedFee: PLAN_FEE });
    const [event] = await eventsOf(res.body.data.id);
    expect(JSON.stringify(event.payload)).toContain(`"fee":{"netAmount":${AMOUNT - PLAN_FEE},"fixedAmount":39,"estimatedFee":${PLAN_FEE}}`);
  });

  it("in installments with interest: netAmount is what the card was charged less the fee, the ledger's credit, not amount - fee", async () => {
    const plan = { maxInstallments: 6, interestFree: 1, monthlyRateBp: 199 };
    const res = await call("POST", "/api/v1/transactions", {
      auth: a.secretKey,
      body: await cardBody(a.publicKey, APPROVED, { ...order, installments: 6, installmentPlan: plan }),
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.id as number;
    const v1 = await call("GET", `/v1/transactions/${id}`, { auth: basic(`${a.secretKey}:x`) });
    const tx = v1.body.data ?? v1.body;
    expect(tx.paidAmount).toBeGreaterThan(AMOUNT);
    const fee = tx.fee as { netAmount: number; estimatedFee: number };
    expect(fee.netAmount).toBe(tx.paidAmount - fee.estimatedFee);
    // The merchant's postings of the payment's journal (credit less fee) sum to the same figure.
    const [journal] = await getDb().select().from(ledgerJournals).where(eq(ledgerJournals.transactionId, id));
    const postings = await getDb()
      .select({ amount: ledgerPostings.amount, companyId: ledgerAccounts.companyId })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .where(eq(ledgerPostings.journalId, journal.id));
    const merchant = postings.filter((p) => p.companyId === a.companyId).reduce((sum, p) => sum + Number(p.amount), 0);
    expect(merchant).toBe(fee.netAmount);
    const [event] = await eventsOf(id);
    expect(JSON.stringify(event.payload)).toContain(`"netAmount":${fee.netAmount}`);
  });
});
