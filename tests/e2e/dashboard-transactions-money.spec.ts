/**
 * Money on the dashboard's transaction and cash-out pages, as the ledger has it:
 * - a card paid in 6x with interest (order R$ 1.500,00, card charged R$ 1.606,20) says the net the
 *   ledger credited, R$ 1.606,20 − R$ 172,74 = R$ 1.433,46, not the order's amount less the fee;
 * - a PIX not paid yet shows its fee as an estimate, charged only if paid;
 * - an open PIX of a payment link another charge paid says so, links to the payment, and offers
 *   neither its PIX code nor a simulated payment;
 * - a failed cash-out says "Valor do saque" and that the money came back, not "Valor transferido".
 * Each page at 1280 px and 390 px, screenshots in test-results/dashboard.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DESKTOP, PHONE_390, basicAuth, createCharge, expectAccessible, shotFromTop, signUp, tokenizeCard, type Merchant } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

const VIEWPORTS = [
  ["desktop", DESKTOP],
  ["phone", PHONE_390],
] as const;

async function bothWidths(page: Page, url: string, shot: string, check: () => Promise<void>) {
  for (const [label, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(url);
    await check();
    await shotFromTop(page, `${shot}-${label}`);
  }
}

async function payInSandbox(request: APIRequestContext, m: Merchant, id: number) {
  const res = await request.put(`/api/v1/transactions/${id}/test`, { headers: { authorization: basicAuth(m) }, data: { status: "paid" } });
  expect(res.status(), await res.text()).toBe(200);
}

test("a card in 6x with interest shows the net the ledger credited; an open PIX shows an estimated fee", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Líquido Parcelado");
  // R$ 1.500,00 in 6x at 1,99% a month: 267,70 each (267,7034…), R$ 1.606,20 charged. Fee on the order:
  // 3,99% + 5 × 1,5% = 11,49% of R$ 1.500,00 = R$ 172,35, + R$ 0,39 = R$ 172,74 (by hand, not by the code).
  const card = await createCharge(request, m, {
    paymentMethod: "credit_card",
    amount: 150_000,
    installments: 6,
    installmentPlan: { maxInstallments: 6, interestFree: 3, monthlyRateBp: 199 },
    ip: "203.0.113.7",
    card: { hash: await tokenizeCard(request, m) },
  });
  expect(card.status).toBe("paid");
  await bothWidths(page, `/dashboard/transactions/${card.id}`, "tx-card-interest-net", async () => {
    const fee = page.getByTestId("tx-fee");
    await expect(fee).toContainText("Tarifa");
    await expect(fee).toContainText("R$ 172,74");
    await expect(fee).toContainText("líquido R$ 1.433,46");
    await expect(fee).not.toContainText("1.327,26");
    await expect(page.getByTestId("tx-installments")).toContainText("6x de R$ 267,70");
  });
  await expectAccessible(page, "card transaction with interest");

  // R$ 45,90 by PIX, not paid: 0,99% = R$ 0,45 (0,4544…), an estimate.
  const pix = await createCharge(request, m, { paymentMethod: "pix", amount: 4_590 });
  await bothWidths(page, `/dashboard/transactions/${pix.id}`, "tx-pix-pending-fee", async () => {
    const fee = page.getByTestId("tx-fee");
    await expect(fee).toContainText("Tarifa estimada");
    await expect(fee).toContainText("R$ 0,45");
    await expect(fee).toContainText("cobrada só se for paga");
    await expect(fee).toContainText("líquido previsto R$ 45,45");
  });
});

test("an open PIX of a payment link already paid says so and offers no payment", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Link Já Pago");
  const link = await request.post("/api/v1/checkouts", {
    headers: { authorization: basicAuth(m) },
    data: { items: [{ title: "Curso de fotografia", unitPrice: 15_000, quantity: 1 }] },
  });
  expect(link.status(), await link.text()).toBe(201);
  const secureId = (await link.json()).data.secureId as string;
  const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
  const issue = async () => {
    const res = await request.post(`/checkout/${secureId}/pay`, { data: { method: "pix", payer } });
    expect(res.status(), await res.text()).toBe(201);
    const made = (await res.json()).data.secureId as string;
    const list = await (await request.get(`/api/v1/transactions?limit=10`, { headers: { authorization: basicAuth(m) } })).json();
    const rows = (Array.isArray(list.data) ? list.data : list.data.data) as { id: number; secureId: string }[];
    return rows.find((r) => r.secureId === made)!.id;
  };
  const leftover = await issue();
  const payment = await issue();
  expect(payment).not.toBe(leftover);
  await payInSandbox(request, m, payment);

  await bothWidths(page, `/dashboard/transactions/${leftover}`, "tx-link-paid-leftover", async () => {
    const note = page.getByTestId("link-paid-elsewhere");
    await expect(note).toContainText("Link de pagamento já pago");
    await expect(note).toContainText(`transação #${payment}`);
    await expect(note).toContainText("não pode mais ser paga");
    await expect(note).toContainText("devolvido integralmente");
    await expect(note.getByRole("link", { name: `transação #${payment}` })).toHaveAttribute("href", `/dashboard/transactions/${payment}`);
    await expect(page.getByRole("button", { name: "Simular pagamento" })).toHaveCount(0);
    await expect(page.getByText("PIX copia e cola")).toHaveCount(0);
    await expect(page.getByTestId("tx-fee")).toContainText("sem tarifa: o link já foi pago por outra cobrança");
    await expect(page.getByTestId("tx-fee")).not.toContainText("líquido");
  });
  await expectAccessible(page, "leftover charge of a paid link");
});

test("a failed cash-out says 'Valor do saque' and that the money came back", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Saque Falho");
  const pix = await createCharge(request, m, { paymentMethod: "pix", amount: 20_000 });
  await payInSandbox(request, m, pix.id);
  const auth = { authorization: basicAuth(m) };
  // The sandbox PSP's test key whose transfers the receiving institution rejects.
  const res = await request.post("/api/v1/cashOut/request", { headers: auth, data: { amount: 1_000, pixKey: "fail@arara.dev" } });
  expect(res.status(), await res.text()).toBe(201);
  const id = (await res.json()).data.id as number;
  await expect
    .poll(async () => (await (await request.get(`/api/v1/cashOut/${id}`, { headers: auth })).json()).data.status, { timeout: 30_000 })
    .toBe("failed");

  await bothWidths(page, `/dashboard/cash-out/${id}`, "cash-out-failed", async () => {
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Falhou");
    await expect(page.getByText("Valor transferido")).toHaveCount(0);
    await expect(page.getByTestId("cash-out-amount")).toContainText("Valor do saque");
    await expect(page.getByTestId("cash-out-amount")).toContainText("R$ 10,00");
    await expect(page.getByTestId("cash-out-total")).toContainText("Debitado e devolvido ao saldo");
    await expect(page.getByText("Concluído em")).toHaveCount(0);
    await expect(page.getByText("Falhou em")).toBeVisible();
  });
  await expectAccessible(page, "failed cash-out");
});
