/**
 * Card installments the merchant decides: the account's plan (dashboard, Parcelamento), a charge's
 * or a payment link's own installmentPlan, the server pricing the chosen option by the Price table
 * (the card is charged its total, recorded as paidAmount) and refusing a count the plan does not
 * offer; the ledger still sums to zero. Expected centavos are computed independently (Python,
 * exact fractions), never with the code under test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq, sum } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies, ledgerJournals, ledgerPostings, transactions } from "@/lib/db/schema";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { updateInstallmentPlan } from "@/lib/services/accounts/installment-plan";
import { systemContext } from "@/lib/services/context";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { ServiceError } from "@/lib/services/errors";
import { computeTransactionFee } from "@/lib/domain/fees";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, cardBody } from "../helpers/cash-in";
import { expectBooksAgree } from "../helpers/money";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Parcelas");
});

const order = (amount: number) => ({ amount, items: [{ title: "Câmera", unitPrice: amount, quantity: 1, tangible: true }] });
const createCharge = (body: Record<string, unknown>, acc = a) => call("POST", "/api/v1/transactions", { auth: acc.secretKey, body });

async function setPlan(acc: CreatedAccount, form: Record<string, string>) {
  const account = await findAccountById(acc.companyId);
  return updateInstallmentPlan(systemContext(account!), form);
}

async function postingsSumOf(transactionId: number): Promise<number> {
  const [row] = await getDb()
    .select({ total: sum(ledgerPostings.amount) })
    .from(ledgerPostings)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerPostings.journalId))
    .where(eq(ledgerJournals.transactionId, transactionId));
  return Number(row.total);
}

describe("the account's installment plan", () => {
  it("by default offers 12x without interest: the card is charged the amount", async () => {
    const fresh = await createTestAccount("Loja Padrão");
    const res = await createCharge(await cardBody(fresh.publicKey, undefined, { ...order(100_000), installments: 12 }), fresh);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 100_000, paidAmount: 100_000, installments: 12 });
  });

  it("charges the Price-table total beyond the interest-free installments, and keeps the amount", async () => {
    await setPlan(a, { maxInstallments: "6", interestFree: "3", monthlyRate: "1,99" });
    const free = await createCharge(await cardBody(a.publicKey, undefined, { ...order(100_000), installments: 3 }));
    expect(free.body.data).toMatchObject({ amount: 100_000, paidAmount: 100_000, installments: 3 });
    // R$ 1.000,00 in 6x at 1,99% a month: 178,47 each (178,4687…), 1.070,82 in all.
    const res = await createCharge(await cardBody(a.publicKey, undefined, { ...order(100_000), installments: "6" }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "paid", amount: 100_000, paidAmount: 107_082, installments: 6 });
  });

  it("refuses a count above the plan's maximum, or one whose installment would be under R$ 5,00", async () => {
    await setPlan(a, { maxInstallments: "6", interestFree: "3", monthlyRate: "1,99" });
    const above = await createCharge(await cardBody(a.publicKey, undefined, { ...order(100_000), installments: 7 }));
    expect(above.status).toBe(400);
    expect(above.body.errors).toEqual([expect.objectContaining({ field: "installments", message: expect.stringContaining("choose 1 to 6") })]);
    const small = await createCharge(await cardBody(a.publicKey, undefined, { ...order(1_500), installments: 4 }));
    expect(small.status).toBe(400);
    expect(small.body.errors[0]).toMatchObject({ field: "installments", message: expect.stringContaining("choose 1 to 3") });
  });

  it("rejects a plan that makes no sense, in Portuguese, field by field", async () => {
    const err = await setPlan(a, { maxInstallments: "4", interestFree: "6", monthlyRate: "abc" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    const fields = (err as ServiceError).errors!.map((e) => e.field).sort();
    expect(fields).toEqual(["interestFree", "monthlyRate"]);
    await expect(setPlan(a, { maxInstallments: "13", interestFree: "1", monthlyRate: "0" })).rejects.toThrow(ServiceError);
    await expect(setPlan(a, { maxInstallments: "12", interestFree: "1", monthlyRate: "10,01" })).rejects.toThrow(ServiceError);
  });
});

describe("the database's own bounds on the account's plan", () => {
  it.each([
    [{ installmentMax: 13 }],
    [{ installmentMax: 0 }],
    [{ installmentMax: 4, installmentInterestFree: 5 }],
    [{ installmentInterestFree: 0 }],
    [{ installmentMonthlyRateBp: 1_001 }],
    [{ installmentMonthlyRateBp: -1 }],
  ])("refuses %j even written past the service", async (patch) => {
    const write = getDb().update(companies).set(patch).where(eq(companies.id, a.companyId));
    await expect(write).rejects.toThrow();
  });
});

describe("a charge's own installmentPlan", () => {
  it("overrides the account's plan", async () => {
    await setPlan(a, { maxInstallments: "2", interestFree: "2", monthlyRate: "0" });
    const plan = { maxInstallments: 12, interestFree: 1, monthlyRateBp: 299 };
    // R$ 159,00 in 3x at 2,99%: 56,20 each (56,2005…), 168,60 in all.
    const res = await createCharge(await cardBody(a.publicKey, undefined, { ...order(15_900), installments: 3, installmentPlan: plan }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 15_900, paidAmount: 16_860, installments: 3 });
  });

  it.each([
    [{ maxInstallments: 13, interestFree: 1, monthlyRateBp: 0 }, "installmentPlan.maxInstallments"],
    [{ maxInstallments: 6, interestFree: 7, monthlyRateBp: 0 }, "installmentPlan.interestFree"],
    [{ maxInstallments: 6, interestFree: 1, monthlyRateBp: 1_001 }, "installmentPlan.monthlyRateBp"],
    [{ maxInstallments: 6, interestFree: 1 }, "installmentPlan.monthlyRateBp"],
    ["12x", "installmentPlan"],
  ])("answers 400 naming the bad field for %j", async (plan, field) => {
    const res = await createCharge(await cardBody(a.publicKey, undefined, { ...order(15_900), installmentPlan: plan }));
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("is kept by the charge: a refused card is retried on the checkout page under the charge's plan, not the account's", async () => {
    const fresh = await createTestAccount("Loja Plano Próprio"); // the account's plan: 12x without interest
    const plan = { maxInstallments: 3, interestFree: 1, monthlyRateBp: 299 };
    const refused = await createCharge(await cardBody(fresh.publicKey, "4000000000000002", { ...order(15_900), installments: 3, installmentPlan: plan }), fresh);
    expect(refused.status, refused.text).toBe(201);
    expect(refused.body.data.status).toBe("refused");
    const secureId = refused.body.data.secureId as string;
    const page = await getCheckoutPageData(secureId);
    expect(page?.kind === "transaction" && page.order.installmentPlan).toEqual(plan);
    const retry = async (installments: number) =>
      call("POST", `/checkout/${secureId}/pay`, {
        body: { cardToken: (await cardBody(fresh.publicKey)).card.hash, installments },
        headers: { "content-type": "application/json", "x-arara-peer-address": "203.0.113.7" },
      });
    const twelve = await retry(12);
    expect(twelve.status, twelve.text).toBe(400);
    expect(twelve.body.errors[0]).toMatchObject({ field: "installments", message: expect.stringContaining("choose 1 to 3") });
    const three = await retry(3);
    expect(three.status, three.text).toBe(201);
    const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, three.body.data.secureId));
    // R$ 159,00 in 3x at 2,99%: 56,20 each (56,2005…), 168,60 in all: the interest the merchant set.
    expect(row).toMatchObject({ status: "paid", amount: 15_900, paidAmount: 16_860, installments: 3, installmentPlan: plan });
  });

  it("cannot take the charge above the largest amount with its interest", async () => {
    const plan = { maxInstallments: 12, interestFree: 1, monthlyRateBp: 1_000 };
    const res = await createCharge(await cardBody(a.publicKey, undefined, { ...order(100_000_000), installments: 12, installmentPlan: plan }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "installments", message: expect.stringContaining("above the maximum of 100000000") })]);
    const inOne = await createCharge(await cardBody(a.publicKey, undefined, { ...order(100_000_000), installments: 1, installmentPlan: plan }));
    expect(inOne.status, inOne.text).toBe(201);
  });

  it("applies to cards only", async () => {
    const res = await createCharge(baseBody({ installmentPlan: { maxInstallments: 3, interestFree: 1, monthlyRateBp: 100 } }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "installmentPlan" })]);
  });
});

describe("a payment link's installmentPlan", () => {
  const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
  const headers = { "content-type": "application/json", "x-arara-peer-address": "203.0.113.7" };

  async function link(installmentPlan: unknown) {
    return call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { items: [{ title: "Curso", unitPrice: 15_000, quantity: 1 }], installmentPlan } });
  }

  it("is shown to the payer and prices the card charge made from the link", async () => {
    await setPlan(a, { maxInstallments: "12", interestFree: "12", monthlyRate: "0" });
    const plan = { maxInstallments: 4, interestFree: 2, monthlyRateBp: 250 };
    const created = await link(plan);
    expect(created.status).toBe(201);
    const page = await getCheckoutPageData(created.body.data.secureId);
    expect(page?.kind === "link" && page.order.installmentPlan).toEqual(plan);

    const hash = (await cardBody(a.publicKey)).card.hash;
    const refused = await call("POST", `/checkout/${created.body.data.secureId}/pay`, {
      body: { method: "credit_card", payer, cardToken: hash, installments: 5 },
      headers,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe("installments");

    const hash2 = (await cardBody(a.publicKey)).card.hash;
    const paid = await call("POST", `/checkout/${created.body.data.secureId}/pay`, {
      body: { method: "credit_card", payer, cardToken: hash2, installments: 4 },
      headers,
    });
    expect(paid.status).toBe(201);
    const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, paid.body.data.secureId));
    // R$ 150,00 in 4x at 2,5%: 39,87 each (39,8727…), 159,48 in all.
    expect(row).toMatchObject({ status: "paid", amount: 15_000, paidAmount: 15_948, installments: 4 });
  });

  it("refuses a link whose plan makes no sense", async () => {
    const res = await link({ maxInstallments: 3, interestFree: 4, monthlyRateBp: 100 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain("installmentPlan.interestFree");
  });
});

describe("the ledger with installment interest", () => {
  it("credits the merchant the total the card was charged less the fee, and every journal sums to zero", async () => {
    const fresh = await createTestAccount("Loja Juros");
    await setPlan(fresh, { maxInstallments: "6", interestFree: "1", monthlyRate: "1,99" });
    const res = await createCharge(await cardBody(fresh.publicKey, undefined, { ...order(17_000), installments: 6 }), fresh);
    expect(res.status).toBe(201);
    // R$ 170,00 in 6x at 1,99%: 30,34 each, 182,04 in all.
    expect(res.body.data).toMatchObject({ amount: 17_000, paidAmount: 18_204 });
    const account = await findAccountById(fresh.companyId);
    const fee = computeTransactionFee(account!.feePlan, "credit_card", 17_000, 6).estimatedFee;
    expect(await postingsSumOf(res.body.data.id)).toBe(0);
    const balance = await expectBooksAgree(fresh);
    expect(balance.total).toBe(18_204 - fee);
  });
});

describe("a card approved after processing", () => {
  // No sandbox card is created processing (a real acquirer's asynchronous answer would be): the
  // row is put there by hand from refused, a state without money, so the books stay whole.
  async function processingCard(acc: CreatedAccount, over: Record<string, unknown>) {
    const res = await createCharge(await cardBody(acc.publicKey, "4000000000000002", { ...order(17_000), installments: 6, ...over }), acc);
    expect(res.body.data.status).toBe("refused");
    await getDb().update(transactions).set({ status: "processing", refusedReason: null }).where(eq(transactions.id, res.body.data.id));
    return res.body.data.id as number;
  }
  const approve = (acc: CreatedAccount, id: number) => call("PUT", `/api/v1/transactions/${id}/test`, { auth: acc.secretKey, body: { status: "paid" } });

  it("is charged its installments' total with interest, under the account's plan, as at creation", async () => {
    const fresh = await createTestAccount("Loja Juros Depois");
    await setPlan(fresh, { maxInstallments: "6", interestFree: "1", monthlyRate: "1,99" });
    const id = await processingCard(fresh, {});
    const res = await approve(fresh, id);
    expect(res.status, res.text).toBe(200);
    // R$ 170,00 in 6x at 1,99%: 30,34 each, 182,04 in all (as the charge approved at creation above).
    expect(res.body.data).toMatchObject({ status: "paid", amount: 17_000, paidAmount: 18_204 });
    const account = await findAccountById(fresh.companyId);
    const fee = computeTransactionFee(account!.feePlan, "credit_card", 17_000, 6).estimatedFee;
    expect(await postingsSumOf(id)).toBe(0);
    expect((await expectBooksAgree(fresh)).total).toBe(18_204 - fee);
  });

  it("under the charge's own plan when it has one", async () => {
    const fresh = await createTestAccount("Loja Juros Própria Depois"); // the account's plan: 12x without interest
    const id = await processingCard(fresh, { amount: 15_900, items: [{ title: "Câmera", unitPrice: 15_900, quantity: 1, tangible: true }], installments: 3, installmentPlan: { maxInstallments: 12, interestFree: 1, monthlyRateBp: 299 } });
    const res = await approve(fresh, id);
    // R$ 159,00 in 3x at 2,99%: 168,60 in all.
    expect(res.body.data).toMatchObject({ status: "paid", amount: 15_900, paidAmount: 16_860 });
    await expectBooksAgree(fresh);
  });
});
