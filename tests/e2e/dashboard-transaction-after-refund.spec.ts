/**
 * The transaction page tells what is true after a refund and for a card:
 * - a fully refunded charge: the fee card says the net after refunds (the fee is kept: −R$ 0,99 on a
 *   R$ 100,00 PIX), not the sale's net alone; the refund that completes it keeps its confirmation on
 *   the page (the form goes, the card and its message stay);
 * - a card in installments with interest says "com juros" and when its money is released.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { DESKTOP, PHONE_390, basicAuth, createCharge, expectAccessible, shotFromTop, signUp, tokenizeCard, type Merchant } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

async function paidPix(request: APIRequestContext, m: Merchant, amount: number): Promise<number> {
  const t = await createCharge(request, m, { paymentMethod: "pix", amount });
  const res = await request.put(`/api/v1/transactions/${t.id}/test`, { headers: { authorization: basicAuth(m) }, data: { status: "paid" } });
  expect(res.status(), await res.text()).toBe(200);
  return t.id;
}

test("a full refund keeps its confirmation, and the fee card says the net after refunds", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Depois do Reembolso");
  await paidPix(request, m, 20_000); // money for the kept fee
  const id = await paidPix(request, m, 10_000);

  await page.goto(`/dashboard/transactions/${id}`);
  await expect(page.getByTestId("tx-fee")).toContainText("líquido R$ 99,01");
  await page.getByRole("button", { name: "Revisar reembolso" }).click();
  await page.getByRole("button", { name: "Confirmar reembolso" }).click();
  // The page rendered again with nothing left to refund: the confirmation is still there.
  // The action's confirmation and the card's state say different things (not the same sentence twice).
  await expect(page.getByRole("status").filter({ hasText: "Reembolso feito: a transação foi reembolsada por inteiro." })).toBeVisible();
  await expect(page.getByTestId("refund-closed")).toHaveText("Transação reembolsada: R$ 100,00 no total.");
  await expect(page.getByRole("button", { name: "Revisar reembolso" })).toHaveCount(0);
  const fee = page.getByTestId("tx-fee");
  await expect(fee).toContainText(/líquido após reembolsos -R\$\s0,99/);
  await expect(fee).toContainText("a tarifa não é devolvida (líquido da venda R$ 99,01)");
  await shotFromTop(page, "tx-refunded-desktop");

  await page.setViewportSize(PHONE_390);
  await page.reload();
  await expect(page.getByTestId("refund-closed")).toHaveText("Transação reembolsada: R$ 100,00 no total.");
  await expect(fee).toContainText(/líquido após reembolsos -R\$\s0,99/);
  await expectAccessible(page, "refunded transaction");
  await shotFromTop(page, "tx-refunded-phone");
});

test("a card in installments with interest says so, and when its money is released", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Cartão com Juros");
  const card = await createCharge(request, m, {
    paymentMethod: "credit_card",
    amount: 150_000,
    installments: 6,
    installmentPlan: { maxInstallments: 6, interestFree: 3, monthlyRateBp: 199 },
    ip: "203.0.113.7",
    card: { hash: await tokenizeCard(request, m) },
  });
  expect(card.status).toBe("paid");
  const interestFree = await createCharge(request, m, {
    paymentMethod: "credit_card",
    amount: 30_000,
    installments: 3,
    installmentPlan: { maxInstallments: 6, interestFree: 3, monthlyRateBp: 199 },
    ip: "203.0.113.7",
    card: { hash: await tokenizeCard(request, m) },
  });
  const today = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date());

  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_390],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/dashboard/transactions/${card.id}`);
    await expect(page.getByTestId("tx-installments")).toContainText("6x de R$ 267,70 com juros (total R$ 1.606,20)");
    // The e2e server settles cards at once (CARD_SETTLEMENT_DAYS=0); with days, "a receber até <date>".
    await expect(page.getByTestId("tx-card-release")).toHaveText(
      process.env.CARD_SETTLEMENT_DAYS && process.env.CARD_SETTLEMENT_DAYS !== "0"
        ? /^a receber até \d{2}\/\d{2}\/\d{4}, quando entra no saldo disponível$/
        : `liberado no saldo disponível em ${today}`,
    );
    await shotFromTop(page, `tx-card-interest-${label}`);
  }
  await page.goto(`/dashboard/transactions/${interestFree.id}`);
  await expect(page.getByTestId("tx-installments")).toContainText("sem juros");
  await expect(page.getByTestId("tx-installments")).not.toContainText("com juros");
});
