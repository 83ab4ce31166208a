/**
 * A payment link is paid once. Its page may issue several charges (a PIX, then a boleto, a refused
 * card and another card), and whichever pays first is the link's payment:
 *
 * - the card paths (paying on the link page, "try another card" on a refused charge) serialise on a
 *   row lock of the link inside the charge's database transaction, so two card payments at once
 *   give one paid charge and one 409;
 * - once the link is paid, its other pending charges cannot be paid through the sandbox (409), and
 *   their pages send the payer to the link, which reads paid;
 * - a payment that still arrives from a rail for another charge (a PIX already sent cannot be
 *   refused) is recorded and refunded in the same database transaction, with its webhooks, timeline,
 *   ledger postings that leave the merchant's balance where it was, and it shows on the link's page
 *   and in the dashboard;
 * - the database itself refuses a second payment of a link (a partial unique index).
 *
 * Every race ends with the ledger check.
 */
import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { checkouts, ledgerJournals, ledgerPostings, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { getCheckoutPageData, getCheckoutStatus } from "@/lib/services/checkouts/checkout-page";
import type { ServiceContext } from "@/lib/services/context";
import { listCheckouts } from "@/lib/services/checkouts/list-checkouts";
import { ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import { recordRailPayment } from "@/lib/services/transactions/record-rail-payment";
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { balanceOf, expectBooksAgree, paidPix } from "../helpers/money";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Link Pago Uma Vez");
});

const GOOD = "4242424242424242";
const DECLINED = "4000000000000002";
const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
const JSON_HEADERS = { "content-type": "application/json" };
const AMOUNT = 15_000;

async function token(number: string): Promise<string> {
  const res = await call("POST", `/api/v1/card-token?publicKey=${a.publicKey}`, {
    body: { number, holderName: "MARIA DA SILVA", expirationMonth: "12", expirationYear: "2035", cvv: "123" },
  });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

async function link(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/v1/checkouts", {
    auth: a.secretKey,
    body: { items: [{ title: "Curso de fotografia", unitPrice: AMOUNT, quantity: 1 }], externalRef: "pedido-7", ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; secureId: string };
}

const pay = (secureId: string, body: unknown) => call("POST", `/checkout/${secureId}/pay`, { body, headers: JSON_HEADERS });
const simulate = (secureId: string) => call("POST", `/checkout/${secureId}/simulate`, { body: {}, headers: JSON_HEADERS });

async function issue(secureId: string, method: "pix" | "boleto") {
  const res = await pay(secureId, { method, payer });
  expect(res.status, res.text).toBe(201);
  const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, res.body.data.secureId));
  return row;
}

async function chargesOf(checkoutId: number) {
  return getDb().select().from(transactions).where(eq(transactions.checkoutId, checkoutId)).orderBy(asc(transactions.id));
}

async function context(): Promise<ServiceContext> {
  const account = await findAccountById(a.companyId);
  return { account: account!, actor: "psp", requestId: "test-psp-confirmation", now: new Date() };
}

function end2end(now = new Date()): string {
  return makeEnd2EndId("12345678", now, Math.random().toString(36).slice(2, 13).padEnd(11, "x"));
}

async function expectLedgerOk() {
  expect((await checkLedger(getDb())).violations).toEqual([]);
}

describe("card payments of one link at once", () => {
  it("paying on the link page while another card is tried on a refused charge of the link gives one paid charge and one 409", async () => {
    for (let round = 0; round < 5; round++) {
      const l = await link({ methods: ["credit_card"] });
      const refused = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(DECLINED) });
      expect(refused.body.data.status).toBe("refused");
      const [onLink, onRetry] = await Promise.all([
        pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD) }),
        pay(refused.body.data.secureId, { cardToken: await token(GOOD) }),
      ]).then((r) => r);
      const statuses = [onLink.status, onRetry.status].sort();
      expect(statuses, `${onLink.text}\n${onRetry.text}`).toEqual([201, 409]);
      const paid = (await chargesOf(l.id)).filter((t) => t.status === "paid");
      expect(paid).toHaveLength(1);
    }
    await expectLedgerOk();
  });

  it("two payers on the link page at once: one paid charge", async () => {
    const l = await link({ methods: ["credit_card"] });
    const results = await Promise.all(
      [0, 1, 2].map(async () => pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    expect((await chargesOf(l.id)).filter((t) => t.status === "paid")).toHaveLength(1);
    await expectLedgerOk();
  });

  it("another card tried twice at once on a refused charge without a link makes one new charge", async () => {
    const created = await call("POST", "/api/v1/transactions", {
      auth: a.secretKey,
      body: {
        paymentMethod: "credit_card",
        amount: 5000,
        ip: "10.0.0.1",
        card: { hash: await token(DECLINED) },
        customer: { name: "João Souza", email: "joao@example.com", document: { type: "cpf", number: "11144477735" } },
        items: [{ title: "Tênis", unitPrice: 5000, quantity: 1, tangible: true }],
      },
    });
    expect(created.body.data.status).toBe("refused");
    const results = await Promise.all([0, 1].map(async () => pay(created.body.data.secureId, { cardToken: await token(GOOD) })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const retries = await getDb().select().from(transactions).where(eq(transactions.retryOfId, created.body.data.id));
    expect(retries).toHaveLength(1);
    await expectLedgerOk();
  });
});

describe("a link paid by card in installments with interest", () => {
  it("its page says what the card was charged (the order plus interest), not the order's amount", async () => {
    const l = await link({ methods: ["credit_card"], installmentPlan: { maxInstallments: 6, interestFree: 1, monthlyRateBp: 199 } });
    const res = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD), installments: 6 });
    expect(res.status, res.text).toBe(201);
    const [charge] = await getDb().select().from(transactions).where(eq(transactions.secureId, res.body.data.secureId));
    expect(charge.status).toBe("paid");
    expect(charge.paidAmount).toBeGreaterThan(AMOUNT);
    const page = await getCheckoutPageData(l.secureId);
    expect(page?.kind === "link" && page.link.paid).toEqual({
      paymentMethod: "credit_card",
      paidAt: charge.paidAt!.toISOString(),
      amount: charge.paidAmount,
      installments: 6,
    });
  });
});

describe("the database keeps one payment per link", () => {
  it("refuses to mark a second charge of a link paid outside the services", async () => {
    const l = await link({ methods: ["pix", "boleto"] });
    const pix = await issue(l.secureId, "pix");
    const boleto = await issue(l.secureId, "boleto");
    expect((await simulate(pix.secureId)).status).toBe(200);
    // A code path that forgot the link's rule: the partial unique index stops it.
    await expect(
      getDb().update(transactions).set({ status: "paid", paidAt: new Date(), paidAmount: AMOUNT }).where(eq(transactions.id, boleto.id)),
    ).rejects.toThrow();
    const [still] = await getDb().select().from(transactions).where(eq(transactions.id, boleto.id));
    expect(still.status).toBe("pending");
  });
});

describe("a link's PIX and boleto", () => {
  it("once the PIX pays the link, its boleto cannot be paid through the sandbox and its page shows the link paid", async () => {
    const l = await link({ methods: ["pix", "boleto"] });
    const pix = await issue(l.secureId, "pix");
    const boleto = await issue(l.secureId, "boleto");

    expect((await simulate(pix.secureId)).body.data).toEqual({ status: "paid" });

    const simulated = await simulate(boleto.secureId);
    expect(simulated.status).toBe(409);
    expect(simulated.body.message).toMatch(/already paid/);
    const moved = await call("PUT", `/api/v1/transactions/${boleto.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toMatch(new RegExp(`transaction #${pix.id}`));

    const [b] = await getDb().select().from(transactions).where(eq(transactions.id, boleto.id));
    expect(b.status).toBe("pending");
    expect((await chargesOf(l.id)).filter((t) => t.paidAt !== null)).toHaveLength(1);

    // The boleto's page and its status poll send the payer to the link, which reads paid by PIX.
    expect(await getCheckoutPageData(boleto.secureId)).toEqual({ kind: "redirect", secureId: l.secureId });
    expect(await getCheckoutStatus(boleto.secureId)).toMatchObject({ status: "pending", next: l.secureId });
    const page = await getCheckoutPageData(l.secureId);
    expect(page?.kind === "link" && page.link).toMatchObject({ status: "paid", paid: { paymentMethod: "pix" }, returned: [] });
    const listed = await listCheckouts(await context(), ListCheckoutsQuery.parse({ limit: "100" }));
    expect(listed.rows.find((r) => r.row.id === l.id)).toMatchObject({ status: "paid", paidTransactionId: pix.id, returnedTransactionIds: [] });
    await expectLedgerOk();
  });

  it("a PIX that still arrives from the PSP after the boleto paid the link is recorded and refunded at once", async () => {
    // A merchant with other money, so that "the balance is where it was" means something.
    await paidPix(a, 10_000);
    const l = await link({ methods: ["pix", "boleto"], postbackUrl: "http://127.0.0.1:9/link-hook" });
    const pix = await issue(l.secureId, "pix");
    const boleto = await issue(l.secureId, "boleto");
    expect((await simulate(boleto.secureId)).status).toBe(200);
    const before = await balanceOf(a);

    const paidAt = new Date();
    const e2e = end2end(paidAt);
    const t = await recordRailPayment(await context(), { transactionId: pix.id, amount: AMOUNT, end2endId: e2e, paidAt });

    expect(t).toMatchObject({
      status: "refunded",
      paidAmount: AMOUNT,
      refundedAmount: AMOUNT,
      pixEnd2end: e2e,
      duplicateOfId: boleto.id,
      feeEstimated: 0,
      feeFixed: 0,
    });
    expect(t.paidAt?.toISOString()).toBe(paidAt.toISOString());

    // Webhooks: paid, then refunded, both to the link's postback URL.
    const events = await getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, pix.id)).orderBy(asc(webhookEvents.id));
    expect(events.map((e) => e.status)).toEqual(["pending", "paid", "refunded"]);
    expect(events.every((e) => e.url === "http://127.0.0.1:9/link-hook")).toBe(true);
    expect(events[2].payload).toMatchObject({ status: "refunded", paidAmount: AMOUNT, refundedAmount: AMOUNT });

    // Timeline: the payment, then the refund with its reason.
    const timeline = await getDb()
      .select()
      .from(transactionStatusChanges)
      .where(eq(transactionStatusChanges.transactionId, pix.id))
      .orderBy(asc(transactionStatusChanges.id));
    expect(timeline.map((r) => [r.fromStatus, r.toStatus, r.cause, r.amount])).toEqual([
      [null, "pending", "created", AMOUNT],
      ["pending", "paid", "payment_received", null],
      ["paid", "refunded", "duplicate_payment_refund", AMOUNT],
    ]);

    // Ledger: a payment and its refund, each summing to zero; the merchant keeps nothing and pays nothing.
    const journals = await getDb().select().from(ledgerJournals).where(eq(ledgerJournals.transactionId, pix.id)).orderBy(asc(ledgerJournals.id));
    expect(journals.map((j) => j.kind)).toEqual(["payment", "refund"]);
    for (const j of journals) {
      const [{ total }] = await getDb()
        .select({ total: sql<string>`coalesce(sum(${ledgerPostings.amount}), 0)::text` })
        .from(ledgerPostings)
        .where(eq(ledgerPostings.journalId, j.id));
      expect(Number(total)).toBe(0);
    }
    expect(await expectBooksAgree(a)).toEqual(before);

    // Shown on the link's page...
    const page = await getCheckoutPageData(l.secureId);
    expect(page?.kind === "link" && page.link).toMatchObject({
      status: "paid",
      paid: { paymentMethod: "boleto" },
      returned: [{ paymentMethod: "pix", amount: AMOUNT }],
    });
    // ...on the charge's own page (refunded, saying why)...
    const own = await getCheckoutPageData(pix.secureId);
    expect(own?.kind === "transaction" && own.transaction).toMatchObject({ status: "refunded", returnedAsDuplicate: true });
    // ...and in the dashboard's payment-links list.
    const ctx = await context();
    const listed = await listCheckouts(ctx, ListCheckoutsQuery.parse({ limit: "100" }));
    expect(listed.rows.find((r) => r.row.id === l.id)).toMatchObject({ status: "paid", paidTransactionId: boleto.id, returnedTransactionIds: [pix.id] });
  });

  it("the same confirmation sent twice by the PSP records one payment", async () => {
    const l = await link({ methods: ["pix"] });
    const pix = await issue(l.secureId, "pix");
    const paidAt = new Date();
    const input = { transactionId: pix.id, amount: AMOUNT, end2endId: end2end(paidAt), paidAt };
    const first = await recordRailPayment(await context(), input);
    const again = await recordRailPayment(await context(), input);
    expect(first.status).toBe("paid");
    expect(again).toMatchObject({ id: pix.id, status: "paid", pixEnd2end: input.end2endId });
    const journals = await getDb().select().from(ledgerJournals).where(eq(ledgerJournals.transactionId, pix.id));
    expect(journals).toHaveLength(1);
    // A different end-to-end id for a charge already paid is not silently taken.
    await expect(recordRailPayment(await context(), { ...input, end2endId: end2end() })).rejects.toMatchObject({ code: "conflict" });
    await expectLedgerOk();
  });

  it("a duplicate is returned even when a chargeback left the merchant's available balance below zero", async () => {
    const m = await createTestAccount("Loja Negativa");
    const account = (await findAccountById(m.companyId))!;
    const ctx: ServiceContext = { account, actor: "psp", requestId: "test", now: new Date() };
    const own = await paidPix(m, 2_000);
    expect((await call("POST", `/api/v1/transactions/${own.id}/refund`, { auth: m.secretKey, body: { amount: 1_000 } })).status).toBe(200);
    expect((await call("POST", "/api/v1/cashOut/request", { auth: m.secretKey, body: { amount: 900, pixKey: "loja@example.com" } })).status).toBe(201);
    expect((await call("PUT", `/api/v1/transactions/${own.id}/test`, { auth: m.secretKey, body: { status: "chargedback" } })).status).toBe(200);

    // The link is paid by card, whose money waits for settlement: available stays below zero.
    const created = await call("POST", "/api/v1/checkouts", { auth: m.secretKey, body: { amount: 3_000, methods: ["pix", "credit_card"] } });
    const lk = created.body.data as { id: number; secureId: string };
    const pix = await pay(lk.secureId, { method: "pix", payer });
    const cardToken = await call("POST", `/api/v1/card-token?publicKey=${m.publicKey}`, {
      body: { number: GOOD, holderName: "MARIA DA SILVA", expirationMonth: "12", expirationYear: "2035", cvv: "123" },
    });
    expect((await pay(lk.secureId, { method: "credit_card", payer, cardToken: cardToken.text })).body.data.status).toBe("paid");
    const before = await balanceOf(m);
    expect(before.available).toBeLessThan(0);

    const [p] = await getDb().select().from(transactions).where(eq(transactions.secureId, pix.body.data.secureId));
    const t = await recordRailPayment(ctx, { transactionId: p.id, amount: 3_000, end2endId: end2end(), paidAt: new Date() });
    expect(t.status).toBe("refunded");
    expect(await expectBooksAgree(m)).toEqual(before);
  });

  it("a PIX from the PSP and a card on the link page at once: the link keeps one payment, the other is refused or returned", async () => {
    for (let round = 0; round < 3; round++) {
      const l = await link({ methods: ["pix", "credit_card"] });
      const pix = await issue(l.secureId, "pix");
      const ctx = await context();
      const [rail, card] = await Promise.allSettled([
        recordRailPayment(ctx, { transactionId: pix.id, amount: AMOUNT, end2endId: end2end(), paidAt: new Date() }),
        token(GOOD).then((tk) => pay(l.secureId, { method: "credit_card", payer, cardToken: tk })),
      ]);
      expect(rail.status).toBe("fulfilled");
      expect(card.status).toBe("fulfilled");
      const charges = await chargesOf(l.id);
      const kept = charges.filter((t) => t.paidAt !== null && t.duplicateOfId === null && t.status === "paid");
      expect(kept).toHaveLength(1);
      const cardRes = (card as PromiseFulfilledResult<Awaited<ReturnType<typeof pay>>>).value;
      if (cardRes.status === 201) {
        expect((rail as PromiseFulfilledResult<{ status: string }>).value.status).toBe("refunded");
      } else {
        expect(cardRes.status).toBe(409);
        expect((rail as PromiseFulfilledResult<{ status: string }>).value.status).toBe("paid");
      }
    }
    await expectLedgerOk();
  });

  it("a link paid, refunded by the merchant, stays paid: a late PIX is returned too", async () => {
    const l = await link({ methods: ["pix", "boleto"] });
    const pix = await issue(l.secureId, "pix");
    const boleto = await issue(l.secureId, "boleto");
    expect((await simulate(boleto.secureId)).status).toBe(200);
    expect((await call("POST", `/api/v1/transactions/${boleto.id}/refund`, { auth: a.secretKey, body: {} })).status).toBe(200);
    const t = await recordRailPayment(await context(), { transactionId: pix.id, amount: AMOUNT, end2endId: end2end(), paidAt: new Date() });
    expect(t).toMatchObject({ status: "refunded", duplicateOfId: boleto.id });
    const [lk] = await getDb().select().from(checkouts).where(eq(checkouts.id, l.id));
    expect(lk.id).toBe(l.id);
    await expectLedgerOk();
  });
});
