/**
 * The payer's side of the hosted checkout: page data, the status poll, paying a payment link by each
 * method, trying another card after a refusal, and the sandbox "simulate payment" control. Requests
 * go through the real route handlers (app/checkout/[secureId]/...), card tokens through the real
 * /api/v1/card-token.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkouts, transactions } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { LINK_REFUSAL } from "@/lib/domain/link-refusals";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Checkout");
});

const GOOD = "4242424242424242";
const DECLINED = "4000000000000002";
const NO_FUNDS = "4000000000009995";
const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
const JSON_HEADERS = { "content-type": "application/json" };

async function token(number: string, pk = a.publicKey): Promise<string> {
  const res = await call("POST", `/api/v1/card-token?publicKey=${pk}`, {
    body: { number, holderName: "MARIA DA SILVA", expirationMonth: "12", expirationYear: "2035", cvv: "123" },
  });
  expect(res.status).toBe(200);
  return res.text;
}

async function link(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/v1/checkouts", {
    auth: a.secretKey,
    body: { items: [{ title: "Curso de fotografia", unitPrice: 15_000, quantity: 1 }], externalRef: "pedido-42", ...body },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secureId: string };
}

const pay = (secureId: string, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
  call("POST", `/checkout/${secureId}/pay`, { body, headers });
const simulate = (secureId: string, headers: Record<string, string> = JSON_HEADERS) =>
  call("POST", `/checkout/${secureId}/simulate`, { body: {}, headers });
const status = (secureId: string) => call("GET", `/checkout/${secureId}/status`);

async function apiTransaction(body: Record<string, unknown>) {
  const res = await call("POST", "/api/v1/transactions", {
    auth: a.secretKey,
    body: {
      amount: 5000,
      items: [{ title: "Tênis", unitPrice: 5000, quantity: 1, tangible: true }],
      customer: { name: "João Souza", email: "joao@example.com", phone: "(11) 98765-4321", document: { type: "cpf", number: "11144477735" } },
      externalRef: "api-order-1",
      postbackUrl: "http://127.0.0.1:9/hook",
      metadata: "segredo do lojista",
      ...body,
    },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secureId: string; status: string };
}

describe("checkout page data", () => {
  it("is null for an unknown or malformed secureId", async () => {
    expect(await getCheckoutPageData(randomUUID())).toBeNull();
    expect(await getCheckoutPageData("not-a-uuid")).toBeNull();
    expect((await status(randomUUID())).status).toBe(404);
  });

  it("shows the payer the order and the PIX code, never keys, secrets, postback URL, metadata or the payer's document", async () => {
    const t = await apiTransaction({ paymentMethod: "pix" });
    const data = await getCheckoutPageData(t.secureId);
    expect(data?.kind).toBe("transaction");
    if (data?.kind !== "transaction") return;
    // The brand is what the merchant chose to show payers (here none yet: the defaults).
    const brand = { color: "#0f766e", colorHover: "#0d645e", logoUrl: null, support: { email: null, phone: null, whatsapp: null } };
    expect(data.merchant).toEqual({ name: expect.stringContaining("Loja Checkout"), cnpj: null, publicKey: a.publicKey, brand });
    expect(data.order).toEqual({
      amount: 5000,
      description: null,
      items: [{ title: "Tênis", quantity: 1, unitPrice: 5000 }],
      subtotal: 5000,
      shipping: 0,
      discount: 0,
      // The account's installment plan, by default today's: 12x, all interest-free.
      installmentPlan: { maxInstallments: 12, interestFree: 12, monthlyRateBp: 0 },
    });
    expect(data.transaction).toMatchObject({ status: "pending", paymentMethod: "pix", sandbox: true, expired: false, canRetry: false });
    expect(data.transaction.pix?.qrcode).toMatch(/^000201/);
    const text = JSON.stringify(data);
    for (const secret of [a.secretKey, a.webhookSecret, "127.0.0.1:9", "segredo do lojista", "11144477735", "joao@example.com"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("marks a PIX past its expiry as expired, and the sandbox control then refuses to pay it", async () => {
    const t = await apiTransaction({ paymentMethod: "pix" });
    await getDb().update(transactions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(transactions.secureId, t.secureId));
    const data = await getCheckoutPageData(t.secureId);
    expect(data?.kind === "transaction" && data.transaction.expired).toBe(true);
    expect((await status(t.secureId)).body.data).toMatchObject({ kind: "transaction", status: "pending", expired: true });
    const res = await simulate(t.secureId);
    expect(res.status).toBe(422);
  });
});

describe("sandbox simulate", () => {
  it("pays a test PIX; the status poll reads paid", async () => {
    const t = await apiTransaction({ paymentMethod: "pix" });
    expect((await status(t.secureId)).body.data).toMatchObject({ status: "pending", paidAt: null });
    const res = await simulate(t.secureId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: "paid" });
    const polled = await status(t.secureId);
    expect(polled.headers.get("cache-control")).toBe("no-store");
    expect(polled.body.data).toMatchObject({ status: "paid", paidAt: expect.any(String) });
    const read = await call("GET", `/api/v1/transactions/${t.id}`, { auth: a.secretKey });
    expect(read.body.data.status).toBe("paid");
  });

  it("clears a test boleto", async () => {
    const t = await apiTransaction({ paymentMethod: "boleto" });
    expect((await simulate(t.secureId)).body.data).toEqual({ status: "paid" });
  });

  it("refuses live transactions, card charges, other sites and non-JSON posts", async () => {
    const live = await apiTransaction({ paymentMethod: "pix" });
    await getDb().update(transactions).set({ livemode: true }).where(eq(transactions.secureId, live.secureId));
    expect((await simulate(live.secureId)).status).toBe(403);

    const card = await apiTransaction({ paymentMethod: "credit_card", ip: "10.0.0.1", card: { hash: await token(DECLINED) } });
    expect((await simulate(card.secureId)).status).toBe(409);

    const pix = await apiTransaction({ paymentMethod: "pix" });
    expect((await simulate(pix.secureId, { ...JSON_HEADERS, origin: "https://evil.example" })).status).toBe(403);
    expect((await simulate(pix.secureId, { ...JSON_HEADERS, "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await simulate(pix.secureId, { "content-type": "text/plain" })).status).toBe(400);
    expect((await status(pix.secureId)).body.data.status).toBe("pending");
  });
});

describe("paying a payment link", () => {
  it("by PIX: issues a transaction of the link for the order, then the link reads paid", async () => {
    const l = await link({ postbackUrl: "http://127.0.0.1:9/link-hook", metadata: "m-1" });
    const res = await pay(l.secureId, { method: "pix", payer });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "pending", paymentMethod: "pix", refusedReason: null });
    const [t] = await getDb().select().from(transactions).where(eq(transactions.secureId, res.body.data.secureId));
    expect(t).toMatchObject({
      checkoutId: l.id,
      amount: 15_000,
      externalRef: "pedido-42",
      postbackUrl: "http://127.0.0.1:9/link-hook",
      metadata: "m-1",
      customerDocument: "11144477735",
      customerEmail: "maria@example.com",
    });
    expect(t.items).toEqual([{ title: "Curso de fotografia", unitPrice: 15_000, quantity: 1, tangible: false }]);

    const before = await getCheckoutPageData(l.secureId);
    // The page every visitor gets names no charge made from the link (only the browser that made it is
    // offered it, with its attempt key: checkout-link-pending-privacy.test.ts).
    expect(before?.kind === "link" && before.link).toMatchObject({ status: "open" });
    expect(JSON.stringify(before)).not.toContain(t.secureId);

    await simulate(t.secureId);
    const after = await getCheckoutPageData(l.secureId);
    expect(after?.kind === "link" && after.link).toMatchObject({ status: "paid", paid: { paymentMethod: "pix" } });
    expect((await status(l.secureId)).body.data).toEqual({ kind: "link", status: "paid" });
    expect((await pay(l.secureId, { method: "boleto", payer })).status).toBe(409);
    const api = await call("GET", `/api/v1/checkouts/${l.id}`, { auth: a.secretKey });
    expect(api.body.data).toMatchObject({ status: "paid", transactionId: t.id });
  });

  it("by boleto", async () => {
    const l = await link();
    const res = await pay(l.secureId, { method: "BOLETO", payer: { ...payer, document: "11.222.333/0001-81" } });
    expect(res.status).toBe(201);
    const data = await getCheckoutPageData(res.body.data.secureId);
    expect(data?.kind === "transaction" && data.transaction.boleto).toMatchObject({
      digitableLine: expect.stringMatching(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/),
      barcode: expect.stringMatching(/^\d{44}$/),
      pdfUrl: `/checkout/${res.body.data.secureId}/boleto.pdf`,
    });
    expect(data?.kind === "transaction" && data.transaction.linkSecureId).toBe(l.secureId);
  });

  it("a refused card of a card-only link offers no other way to pay (there is none); with other methods it leads back to the link", async () => {
    const only = await link({ methods: ["credit_card"] });
    const refused = await pay(only.secureId, { method: "credit_card", payer, cardToken: await token(DECLINED) });
    expect(refused.body.data).toMatchObject({ status: "refused" });
    const page = await getCheckoutPageData(refused.body.data.secureId);
    expect(page?.kind === "transaction" && page.transaction).toMatchObject({ canRetry: true, linkSecureId: null });

    const several = await link({ methods: ["pix", "credit_card"] });
    const refusedToo = await pay(several.secureId, { method: "credit_card", payer, cardToken: await token(DECLINED) });
    const pageToo = await getCheckoutPageData(refusedToo.body.data.secureId);
    expect(pageToo?.kind === "transaction" && pageToo.transaction).toMatchObject({ canRetry: true, linkSecureId: several.secureId });

    // A PIX-only link's pending PIX neither: going back would offer the same PIX.
    const pixOnly = await link({ methods: ["pix"] });
    const pix = await pay(pixOnly.secureId, { method: "pix", payer });
    const pixPage = await getCheckoutPageData(pix.body.data.secureId);
    expect(pixPage?.kind === "transaction" && pixPage.transaction.linkSecureId).toBeNull();
  });

  it("by card: refused, then another card on the refused charge's page is approved for the same order", async () => {
    const l = await link();
    const refused = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(DECLINED), installments: 3 });
    expect(refused.status).toBe(201);
    expect(refused.body.data).toMatchObject({ status: "refused", refusedReason: "card_declined" });
    const first = await getCheckoutPageData(refused.body.data.secureId);
    expect(first?.kind === "transaction" && first.transaction).toMatchObject({ canRetry: true, card: { lastDigits: "0002", refusedReason: "card_declined" } });

    const retried = await pay(refused.body.data.secureId, { cardToken: await token(GOOD), installments: "2" }, { ...JSON_HEADERS, "x-arara-peer-address": "203.0.113.7" });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ status: "paid", paymentMethod: "credit_card" });
    const [t] = await getDb().select().from(transactions).where(eq(transactions.secureId, retried.body.data.secureId));
    const [r] = await getDb().select().from(transactions).where(eq(transactions.secureId, refused.body.data.secureId));
    expect(t).toMatchObject({ retryOfId: r.id, checkoutId: l.id, installments: 2, ip: "203.0.113.7", externalRef: "pedido-42", cardLastDigits: "4242" });
    expect(t.customer).toEqual(r.customer);
    expect(t.items).toEqual(r.items);

    // The refused charge's page now follows the approved one; it cannot be tried again.
    expect(await getCheckoutPageData(refused.body.data.secureId)).toEqual({ kind: "redirect", secureId: t.secureId });
    expect((await status(refused.body.data.secureId)).body.data.next).toBe(t.secureId);
    expect((await pay(refused.body.data.secureId, { cardToken: await token(GOOD) })).status).toBe(409);
    expect((await getCheckoutPageData(l.secureId))?.kind === "link").toBe(true);
    expect((await call("GET", `/api/v1/checkouts/${l.id}`, { auth: a.secretKey })).body.data.status).toBe("paid");
  });

  const bad: [string, string, Record<string, unknown>][] = [
    ["no method", "method", { payer }],
    ["a method the link does not offer", "method", { method: "boleto", payer }],
    ["no payer", "payer", { method: "pix" }],
    ["an invalid CPF", "payer.document", { method: "pix", payer: { ...payer, document: "111.444.777-36" } }],
    ["a single name", "payer.name", { method: "pix", payer: { ...payer, name: "Maria" } }],
    ["a bad e-mail", "payer.email", { method: "pix", payer: { ...payer, email: "maria@" } }],
    ["a card without token", "cardToken", { method: "credit_card", payer }],
  ];
  it.each(bad)("refuses %s with a 400 naming %s", async (_n, field, body) => {
    const l = await link({ methods: ["pix", "credit_card"] });
    const res = await pay(l.secureId, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("installments that are not a whole number, or a payer's field of the wrong type, are named in words", async () => {
    const l = await link({ methods: ["pix", "credit_card"] });
    const res = await pay(l.secureId, { method: "credit_card", payer, cardToken: "ct_x", installments: "2.0" });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "installments", message: "must be a whole number from 1 to 12" });
    const typed = await pay(l.secureId, { method: "pix", payer: { ...payer, name: 42 } });
    expect(typed.status, typed.text).toBe(400);
    expect(typed.body.errors).toContainEqual({ field: "payer.name", message: "must be a string" });
    expect(`${res.body.message} ${typed.body.message}`).not.toMatch(/Invalid|pattern|expected/);
  });

  it("an expired link takes no payment", async () => {
    const l = await link({ expiresInDays: 1 });
    await getDb().update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.id, l.id));
    expect((await getCheckoutPageData(l.secureId))?.kind === "link").toBe(true);
    const res = await pay(l.secureId, { method: "pix", payer });
    expect(res.status).toBe(422);
    // The page tells the payer why by this exact text (components/checkout/refusal.ts).
    expect(res.body.message).toBe(LINK_REFUSAL.expired);
  });

  it("a PIX issued by a link expires with the link, not a day after it", async () => {
    const l = await link({ expiresInDays: 1 });
    const linkEnds = new Date(Date.now() + 90_000);
    await getDb().update(checkouts).set({ expiresAt: linkEnds }).where(eq(checkouts.id, l.id));
    const res = await pay(l.secureId, { method: "pix", payer });
    expect(res.status, res.text).toBe(201);
    const [pix] = await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id));
    expect(pix.expiresAt!.getTime()).toBeLessThanOrEqual(linkEnds.getTime() + 1000);
    expect(pix.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("a card token of another account is refused, and no charge is recorded", async () => {
    const other = await createTestAccount("Outra Loja");
    const l = await link();
    const res = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD, other.publicKey) });
    expect(res.status).toBe(422);
    expect(res.body.errors?.[0]?.field).toBe("cardToken");
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(0);
  });

  it("stops offering another card after five refusals of one order", async () => {
    const l = await link();
    let current = (await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(NO_FUNDS) })).body.data.secureId;
    for (let i = 2; i <= 5; i++) {
      const res = await pay(current, { cardToken: await token(NO_FUNDS) });
      expect(res.body.data.status).toBe("refused");
      current = res.body.data.secureId;
    }
    const data = await getCheckoutPageData(current);
    expect(data?.kind === "transaction" && data.transaction.canRetry).toBe(false);
    expect((await pay(current, { cardToken: await token(GOOD) })).status).toBe(422);
    const again = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD) });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(LINK_REFUSAL.cardLimit);
  });
});

describe("limits of a payment link", () => {
  it("issues at most 20 charges from one link", async () => {
    const l = await link({ methods: ["pix"] });
    // Twenty payers.
    const someone = (i: number) => ({ ...payer, email: `pagador-${i}@example.com` });
    for (let i = 0; i < 20; i++) expect((await pay(l.secureId, { method: "pix", payer: someone(i) })).status).toBe(201);
    const res = await pay(l.secureId, { method: "pix", payer: someone(20) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(LINK_REFUSAL.linkLimit);
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(20);
  });

  it("the same page asking again for a PIX or a boleto (answer lost, double tap, Reload) is given the one already issued, not a second to pay", async () => {
    const l = await link();
    const tab = "aba-da-maria-0123456789abcdef";
    const first = await pay(l.secureId, { method: "pix", payer, attempt: tab });
    expect(first.status, first.text).toBe(201);
    // Asked again, with the details typed slightly differently (spaces, capitals, the document's punctuation).
    const again = await pay(l.secureId, { method: "pix", payer: { name: " maria da silva ", email: "MARIA@example.com", document: "11144477735" }, attempt: tab });
    expect(again.body.data.secureId).toBe(first.body.data.secureId);
    // Two taps at once: one charge between them, the one already issued.
    const [x, y] = await Promise.all([pay(l.secureId, { method: "pix", payer, attempt: tab }), pay(l.secureId, { method: "pix", payer, attempt: tab })]);
    expect([x.body.data.secureId, y.body.data.secureId]).toEqual([first.body.data.secureId, first.body.data.secureId]);
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(1);
    // The key itself is not kept, only its hash.
    const [row] = await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id));
    expect(row.checkoutAttempt).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(tab);

    // Another method, another payer's details, or the same once the code is about to expire: a new charge.
    const boleto = await pay(l.secureId, { method: "boleto", payer, attempt: tab });
    expect(boleto.body.data).toMatchObject({ paymentMethod: "boleto", status: "pending" });
    expect((await pay(l.secureId, { method: "boleto", payer, attempt: tab })).body.data.secureId).toBe(boleto.body.data.secureId);
    const other = await pay(l.secureId, { method: "pix", payer: { ...payer, email: "joao@example.com" }, attempt: tab });
    expect(other.body.data.secureId).not.toBe(first.body.data.secureId);
    await getDb()
      .update(transactions)
      .set({ expiresAt: new Date(Date.now() + 5 * 60_000) })
      .where(eq(transactions.secureId, first.body.data.secureId));
    const fresh = await pay(l.secureId, { method: "pix", payer, attempt: tab });
    expect(fresh.body.data.secureId).not.toBe(first.body.data.secureId);
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(4);
  });

  it("someone else with the payer's name, e-mail and document, but not their page's key, learns nothing: a charge of their own", async () => {
    const l = await link();
    const mine = await pay(l.secureId, { method: "pix", payer, attempt: "aba-da-maria-0123456789abcdef" });
    const stranger = await pay(l.secureId, { method: "pix", payer, attempt: "aba-de-outra-pessoa-987654321" });
    const noKey = await pay(l.secureId, { method: "pix", payer });
    expect(new Set([mine.body.data.secureId, stranger.body.data.secureId, noKey.body.data.secureId]).size).toBe(3);
    expect((await pay(l.secureId, { method: "pix", payer, attempt: "curta" })).status).toBe(400);
  });

  it("a double tap on a link's last free charge is given that charge, not 'too many charges'", async () => {
    const l = await link({ methods: ["pix", "boleto"] });
    for (let i = 0; i < 19; i++) {
      expect((await pay(l.secureId, { method: "boleto", payer: { ...payer, email: `b${i}@example.com` } })).status).toBe(201);
    }
    const tab = "aba-da-maria-0123456789abcdef";
    const taps = await Promise.all([0, 1, 2].map(() => pay(l.secureId, { method: "pix", payer, attempt: tab })));
    expect(taps.map((r) => r.status), taps.map((r) => r.text).join("\n")).toEqual([201, 201, 201]);
    expect(new Set(taps.map((r) => r.body.data.secureId)).size).toBe(1);
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(20);
  });

  it("a card is never given back this way: each tap is an attempt of its own", async () => {
    const l = await link();
    // The page sends its attempt key with every tap, a card's too; a card keeps none, so nothing can give it back.
    const tab = "aba-da-maria-0123456789abcdef";
    const first = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(NO_FUNDS), attempt: tab });
    const second = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(NO_FUNDS), attempt: tab });
    expect(first.body.data.status).toBe("refused");
    expect(second.body.data.secureId).not.toBe(first.body.data.secureId);
    const rows = await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id));
    expect(rows.map((t) => t.checkoutAttempt)).toEqual([null, null]);
  });

  it("once a link is paid, its other charges' boleto and QR code are no longer served: the payer is sent to the paid order", async () => {
    const l = await link({ methods: ["pix", "boleto", "credit_card"] });
    const boleto = (await pay(l.secureId, { method: "boleto", payer })).body.data.secureId as string;
    const pix = (await pay(l.secureId, { method: "pix", payer })).body.data.secureId as string;
    expect((await call("GET", `/checkout/${boleto}/boleto.pdf`)).status).toBe(200);
    expect((await call("GET", `/checkout/${pix}/qr.png`)).status).toBe(200);
    const card = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(GOOD) });
    expect(card.body.data.status).toBe("paid");
    const pdf = await call("GET", `/checkout/${boleto}/boleto.pdf`);
    expect(pdf.status).toBe(303);
    expect(pdf.headers.get("location")).toBe(`/checkout/${boleto}`);
    expect((await call("GET", `/checkout/${pix}/qr.png`)).status).toBe(404);
    // The boleto's page itself shows the paid link.
    expect((await getCheckoutPageData(boleto))?.kind).toBe("redirect");
  });

  it("counts the retries of every refused card against the link's caps, not one chain at a time", async () => {
    const l = await link({ methods: ["pix", "credit_card"] });
    // Five refused cards through the link's form: the link takes no more cards...
    const refused: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(NO_FUNDS) });
      expect(res.body.data.status).toBe("refused");
      refused.push(res.body.data.secureId);
    }
    expect((await pay(l.secureId, { method: "credit_card", payer, cardToken: await token(NO_FUNDS) })).status).toBe(422);
    // ... nor through a retry on any refused charge's page (each chain had only one attempt).
    for (const secureId of refused) {
      const retry = await pay(secureId, { cardToken: await token(NO_FUNDS) });
      expect(retry.status, retry.text).toBe(422);
    }
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(5);
    // Up to 20 charges in all, retries included: PIX until the cap, then no retry either.
    for (let i = 0; i < 15; i++) expect((await pay(l.secureId, { method: "pix", payer: { ...payer, email: `p${i}@example.com` } })).status).toBe(201);
    expect((await pay(refused[0], { cardToken: await token(GOOD) })).status).toBe(422);
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(20);
  });
});

describe("trying another card on a charge made through the API", () => {
  it("creates a new card charge for the same order, with the merchant's references", async () => {
    const refused = await apiTransaction({ paymentMethod: "credit_card", ip: "10.0.0.1", card: { hash: await token(DECLINED) } });
    expect(refused.status).toBe("refused");
    const res = await pay(refused.secureId, { cardToken: await token(GOOD) });
    expect(res.status).toBe(201);
    const [t] = await getDb().select().from(transactions).where(eq(transactions.secureId, res.body.data.secureId));
    expect(t).toMatchObject({
      status: "paid",
      retryOfId: refused.id,
      checkoutId: null,
      externalRef: "api-order-1",
      postbackUrl: "http://127.0.0.1:9/hook",
      metadata: "segredo do lojista",
      ip: "127.0.0.1",
      amount: 5000,
    });
    expect(t.customer).toMatchObject({ name: "João Souza", phone: "11987654321" });
  });

  it("a PIX, a paid card or an unknown id cannot be paid by card here", async () => {
    const pix = await apiTransaction({ paymentMethod: "pix" });
    expect((await pay(pix.secureId, { cardToken: "x" })).status).toBe(409);
    const paid = await apiTransaction({ paymentMethod: "credit_card", ip: "10.0.0.1", card: { hash: await token(GOOD) } });
    expect((await pay(paid.secureId, { cardToken: "x" })).status).toBe(409);
    expect((await pay(randomUUID(), { cardToken: "x" })).status).toBe(404);
  });
});
