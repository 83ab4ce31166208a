/**
 * The transaction page shows where a sale's goods go and how far they got (the address and freight
 * sent with the charge, the delivery status and tracking code), and once paid the merchant sets them
 * there, as the API's PUT /transactions/{id}/delivery does: the API reads back what the page saved.
 */
import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE_390, basicAuth, createCharge, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

const address = { street: "Rua das Flores", streetNumber: "100", complement: "Apto 12", zipCode: "01310100", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", country: "br" };

test("a paid sale with goods: the address, the freight, and the delivery set from the page", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja com Entrega");
  const t = await createCharge(request, m, {
    paymentMethod: "pix",
    amount: 6_490,
    items: [{ title: "Camiseta", unitPrice: 4_990, quantity: 1, tangible: true }],
    shipping: { fee: 1_500, address },
  });
  await page.goto(`/dashboard/transactions/${t.id}`);
  const card = page.getByRole("region", { name: "Entrega" });
  await expect(card.getByTestId("delivery-address")).toHaveText("Rua das Flores, 100 — Apto 12Bela VistaSão Paulo/SPCEP 01310-100");
  await expect(card).toContainText("R$ 15,00");
  await expect(card.getByTestId("delivery-status")).toHaveText("Aguardando envio");
  // Not paid yet: nothing to ship, no form.
  await expect(card).toContainText("O envio pode ser registrado depois do pagamento.");
  await expect(card.getByRole("button", { name: "Salvar entrega" })).toHaveCount(0);

  const paid = await request.put(`/api/v1/transactions/${t.id}/test`, { headers: { authorization: basicAuth(m) }, data: { status: "paid" } });
  expect(paid.status(), await paid.text()).toBe(200);
  await page.reload();
  await card.getByLabel("Status da entrega").selectOption("in_transit");
  await card.getByLabel("Código de rastreio").fill("  BR123456789BR ");
  await card.getByRole("button", { name: "Salvar entrega" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Entrega: Em trânsito, rastreio BR123456789BR." })).toBeVisible();
  await expect(card.getByTestId("delivery-status")).toHaveText("Em trânsito");
  // The form shows what was saved: the status chosen, the code as stored (trimmed).
  await expect(card.getByLabel("Status da entrega")).toHaveValue("in_transit");
  await expect(card.getByLabel("Código de rastreio")).toHaveValue("BR123456789BR");
  const read = await request.get(`/api/v1/transactions/${t.id}`, { headers: { authorization: basicAuth(m) } });
  expect((await read.json()).data.shipping).toMatchObject({ deliveryStatus: "in_transit", trackingCode: "BR123456789BR", address: { city: "São Paulo" } });
  await shotFromTop(page, "tx-delivery-desktop");

  await page.setViewportSize(PHONE_390);
  await page.reload();
  await expect(card.getByTestId("delivery-status")).toHaveText("Em trânsito");
  await expectAccessible(page, "transaction with delivery");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/dashboard-delivery/tx-delivery-phone.png", fullPage: true });
});

test("a sale with nothing to deliver shows no delivery card", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Digital");
  const t = await createCharge(request, m, { paymentMethod: "pix", amount: 1_990, items: [{ title: "Curso", unitPrice: 1_990, quantity: 1, tangible: false }] });
  await page.goto(`/dashboard/transactions/${t.id}`);
  await expect(page.getByRole("heading", { name: "Itens" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Entrega" })).toHaveCount(0);
});
