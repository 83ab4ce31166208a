/**
 * The money the dashboard shows is the money the ledger moved:
 * - a card paid in installments with interest: the net is what the card was charged less the fee,
 *   exactly the payment journal's credit to the merchant (not the order's amount less the fee);
 * - a charge not paid yet shows its fee as an estimate, charged only if paid; a refused or expired
 *   one shows none;
 * - paying (in the sandbox) a charge of a payment link another charge already paid is refused with
 *   the reason, in Portuguese, on the dashboard (not the generic "the record changed").
 * The fee card is rendered from the real component; expected centavos are computed by hand.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { and, eq, sum } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings, transactions } from "@/lib/db/schema";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { accountInstallmentPlan, updateInstallmentPlan } from "@/lib/services/accounts/installment-plan";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { getTransactionDetail } from "@/lib/services/transactions/transaction-detail";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { errorState } from "@/lib/auth/action";
import { chargedTotalOf, feeViewOf, paymentCreditOf } from "@/lib/domain/net-amount";
import { TransactionSummary } from "@/components/dashboard/transaction/TransactionSummary";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, cardBody } from "../helpers/cash-in";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Valores do Painel");
  const account = await findAccountById(a.companyId);
  await updateInstallmentPlan(systemContext(account!), { maxInstallments: "6", interestFree: "3", monthlyRate: "1,99" });
});

async function context(): Promise<ServiceContext> {
  const account = await findAccountById(a.companyId);
  return { account: account!, actor: "dashboard-test", requestId: "dashboard-money-display", now: new Date() };
}

const rowOf = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];

/** The fee card as the transaction page renders it, as text. */
async function feeCardText(id: number, now = new Date()): Promise<string> {
  const ctx = await context();
  const detail = await getTransactionDetail({ ...ctx, now }, id);
  const html = renderToStaticMarkup(createElement(TransactionSummary, { t: detail.transaction, paid: detail.paid, fee: detail.fee }));
  const card = /<div[^>]*data-testid="tx-fee"[^>]*>(.*?)<\/div>/s.exec(html)?.[1] ?? "";
  return card.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

/** What the payment journal of a transaction left the merchant (its merchant postings). */
async function merchantCreditOf(transactionId: number): Promise<number> {
  const [row] = await getDb()
    .select({ total: sum(ledgerPostings.amount) })
    .from(ledgerPostings)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerPostings.journalId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .where(and(eq(ledgerJournals.transactionId, transactionId), eq(ledgerJournals.kind, "payment"), eq(ledgerAccounts.companyId, a.companyId)));
  return Number(row.total);
}

describe("the net amount of a card paid in installments with interest", () => {
  it("is what the card was charged less the fee, the ledger's credit, on the transaction page", async () => {
    const order = { amount: 150_000, installments: 6, items: [{ title: "Câmera", unitPrice: 150_000, quantity: 1, tangible: true }] };
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: await cardBody(a.publicKey, undefined, order) });
    expect(res.status, res.text).toBe(201);
    const t = await rowOf(res.body.data.id);
    // R$ 1.500,00 in 6x at 1,99% a month: 267,70 each (267,6983…), R$ 1.606,20 charged. Fee on the order: 3,99% +
    // 5 × 1,5% = 11,49% of R$ 1.500,00 = R$ 172,35, + R$ 0,39 = R$ 172,74. Net: R$ 1.433,46.
    expect(t).toMatchObject({ status: "paid", amount: 150_000, paidAmount: 160_620, feeEstimated: 17_274 });
    expect(await merchantCreditOf(t.id)).toBe(143_346);
    expect(paymentCreditOf(t)).toBe(143_346);
    expect(feeViewOf(t, accountInstallmentPlan((await context()).account), new Date())).toEqual({
      kind: "charged",
      fee: 17_274,
      fixed: 39,
      charged: 160_620,
      net: 143_346,
      returned: 0,
      returnedBy: null,
      netAfterReturns: 143_346,
    });

    const text = await feeCardText(t.id);
    expect(text).toContain("R$ 172,74");
    expect(text).toContain("líquido R$ 1.433,46");
    expect(text).not.toContain("1.327,26");
  });

  it("before approval, is estimated on the installment plan's total: the charge's own plan, else the account's", async () => {
    const account = (await context()).account;
    const open = { paymentMethod: "credit_card", amount: 150_000, paidAmount: 0, installments: 6, installmentPlan: null };
    expect(chargedTotalOf(open, accountInstallmentPlan(account))).toBe(160_620);
    // R$ 1.500,00 in 6x at 2,99% a month: 276,80 each (276,8044…), R$ 1.660,80.
    expect(chargedTotalOf({ ...open, installmentPlan: { maxInstallments: 6, interestFree: 1, monthlyRateBp: 299 } }, accountInstallmentPlan(account))).toBe(166_080);
    const view = feeViewOf({ ...open, status: "processing", feeEstimated: 17_274, feeFixed: 39, expiresAt: null, refundedAmount: 0 }, accountInstallmentPlan(account), new Date());
    expect(view).toEqual({ kind: "estimate", fee: 17_274, fixed: 39, charged: 160_620, net: 143_346 });
  });
});

describe("the fee of a charge not paid", () => {
  it("is an estimate while the PIX is open, and none once it expired", async () => {
    // R$ 45,90: 0,99% = R$ 0,45 (0,4544…).
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: baseBody({ amount: 4_590, items: [{ title: "Livro", unitPrice: 4_590, quantity: 1, tangible: true }] }) });
    expect(res.status, res.text).toBe(201);
    const t = await rowOf(res.body.data.id);
    expect(t).toMatchObject({ status: "pending", feeEstimated: 45 });

    const open = await feeCardText(t.id);
    expect(open).toContain("Tarifa estimada");
    expect(open).toContain("R$ 0,45");
    expect(open).toContain("cobrada só se for paga");
    expect(open).toContain("líquido previsto R$ 45,45");

    const expired = await feeCardText(t.id, new Date(t.expiresAt!.getTime() + 1_000));
    expect(expired).toContain("—");
    expect(expired).toContain("sem tarifa: a cobrança expirou sem pagamento");
    expect(expired).not.toContain("R$ 0,45");
    expect(expired).not.toContain("líquido");
  });

  it("is none for a refused card", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: await cardBody(a.publicKey, "4000000000000002", { amount: 5_000, items: [{ title: "Curso", unitPrice: 5_000, quantity: 1, tangible: false }] }) });
    expect(res.body.data.status).toBe("refused");
    const text = await feeCardText(res.body.data.id);
    expect(text).toContain("sem tarifa: a cobrança foi recusada");
    expect(text).not.toContain("líquido");
  });
});

describe("paying a charge of a payment link another charge already paid", () => {
  it("is refused on the dashboard with the reason in Portuguese, naming the payment", async () => {
    const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { items: [{ title: "Curso de fotografia", unitPrice: 15_000, quantity: 1 }] } });
    expect(link.status, link.text).toBe(201);
    const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
    const issue = async () => {
      const res = await call("POST", `/checkout/${link.body.data.secureId}/pay`, { body: { method: "pix", payer }, headers: { "content-type": "application/json" } });
      expect(res.status, res.text).toBe(201);
      return (await getDb().select().from(transactions).where(eq(transactions.secureId, res.body.data.secureId)))[0];
    };
    const leftover = await issue();
    const payment = await issue();
    await sandboxMove(await context(), payment.id, "paid");

    const err = await sandboxMove(await context(), leftover.id, "paid").catch((e: unknown) => e);
    const state = errorState(err);
    expect(state).toEqual({
      status: "error",
      message: `O link de pagamento #${link.body.data.id} já foi pago pela transação #${payment.id}; esta cobrança não pode mais ser paga.`,
    });
    expect((await rowOf(leftover.id)).status).toBe("pending");

    // The page's detail: which charge paid the link, no move towards paid offered, no fee.
    const detail = await getTransactionDetail(await context(), leftover.id);
    expect(detail.linkPaidBy).toBe(payment.id);
    expect(detail.sandboxMoves).not.toContain("paid");
    expect(detail.sandboxMoves).not.toContain("processing");
    expect(detail.fee).toEqual({ kind: "none", reason: "link_paid" });
    expect((await getTransactionDetail(await context(), payment.id)).linkPaidBy).toBeNull();
  });
});
