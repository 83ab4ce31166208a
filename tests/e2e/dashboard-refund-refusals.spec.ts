/**
 * A refund the server refuses is told in Portuguese and in reais, like the browser-side check:
 * - a partial refund reviewed in one tab while another refund is made meanwhile (another tab, the
 *   API) asks for more than is left: "O máximo reembolsável é R$ 39,90.", not `must be at most 3990`;
 * - a full refund reviewed in one tab of a transaction refunded meanwhile: it says the transaction is
 *   no longer paid, not "Only a paid transaction can be refunded".
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { DESKTOP, PHONE_390, basicAuth, createCharge, shotFromTop, signUp, type Merchant } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

async function paidPix(request: APIRequestContext, m: Merchant, amount: number): Promise<number> {
  const t = await createCharge(request, m, { paymentMethod: "pix", amount });
  const res = await request.put(`/api/v1/transactions/${t.id}/test`, { headers: { authorization: basicAuth(m) }, data: { status: "paid" } });
  expect(res.status(), await res.text()).toBe(200);
  return t.id;
}

async function refundByApi(request: APIRequestContext, m: Merchant, id: number, amount?: number) {
  const res = await request.post(`/api/v1/transactions/${id}/refund`, { headers: { authorization: basicAuth(m) }, data: amount ? { amount } : {} });
  expect(res.status(), await res.text()).toBe(200);
}

test("a refund refused by the server says why in Portuguese, in reais", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Reembolso Recusado");
  // Money in the balance to cover a full refund (the fee is kept on refunds).
  await paidPix(request, m, 20_000);
  const id = await paidPix(request, m, 4_990);

  // Tab A reviews a partial refund of all of it; tab B refunds R$ 10,00 meanwhile.
  await page.goto(`/dashboard/transactions/${id}`);
  await page.getByLabel("Parte do valor").check();
  await page.getByLabel("Valor do reembolso (R$)").fill("49,90");
  await page.getByRole("button", { name: "Revisar reembolso" }).click();
  await expect(page.getByText(`Reembolsar R$ 49,90 da transação #${id}?`)).toBeVisible();

  const tabB = await page.context().newPage();
  await tabB.goto(`/dashboard/transactions/${id}`);
  await tabB.getByLabel("Parte do valor").check();
  await tabB.getByLabel("Valor do reembolso (R$)").fill("10,00");
  await tabB.getByRole("button", { name: "Revisar reembolso" }).click();
  await tabB.getByRole("button", { name: "Confirmar reembolso" }).click();
  await expect(tabB.getByText("Reembolso parcial feito. Total reembolsado: R$ 10,00.")).toBeVisible();
  await tabB.close();

  await page.getByRole("button", { name: "Confirmar reembolso" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "reembols" });
  await expect(alert).toHaveText("O máximo reembolsável é R$ 39,90.");
  await expect(page.getByRole("alert").filter({ hasText: /must be|at most|refund/i })).toHaveCount(0);
  await shotFromTop(page, "refund-refused-max-desktop");

  // Tab A reviews a full refund; the API refunds all that is left meanwhile.
  await page.setViewportSize(PHONE_390);
  await page.reload();
  await page.getByRole("button", { name: "Revisar reembolso" }).click();
  await expect(page.getByText(`Reembolsar R$ 39,90 da transação #${id}?`)).toBeVisible();
  await refundByApi(request, m, id);
  await page.getByRole("button", { name: "Confirmar reembolso" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "reembols" })).toHaveText(
    `Só uma transação paga pode ser reembolsada: a transação #${id} está com status Reembolsado. Total reembolsado: R$ 49,90.`,
  );
  await expect(page.getByRole("alert").filter({ hasText: /Only a paid|must be/i })).toHaveCount(0);
  await shotFromTop(page, "refund-refused-not-paid-phone");
});
