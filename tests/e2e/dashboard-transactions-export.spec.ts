/**
 * "Exportar CSV" on the transactions page downloads the transactions of the current filters (all
 * pages), in the statement export's conventions, with formulas neutralised and only this account's
 * transactions; without a session the export sends to the login.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { CUSTOMER, DESKTOP, PHONE_390, createCharge, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

test("the transactions page exports its filtered list as CSV, this account's only", async ({ page, browser, request }) => {
  // Another merchant's PIX, with a name found nowhere else.
  const otherPage = await browser.newPage();
  const other = await signUp(otherPage, "Loja Alheia");
  await createCharge(request, other, { paymentMethod: "pix", amount: 3_000, customer: { ...CUSTOMER, name: "Cliente Alheio" } });
  await otherPage.close();

  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Exporta Transações");
  const formula = await createCharge(request, m, { paymentMethod: "pix", amount: 12_345, externalRef: "pedido-7", customer: { ...CUSTOMER, name: '=HYPERLINK("x")' } });
  const pix = await createCharge(request, m, { paymentMethod: "pix", amount: 1_000, customer: { ...CUSTOMER, name: "Joana Pix" } });
  await createCharge(request, m, { paymentMethod: "boleto", amount: 5_000, customer: { ...CUSTOMER, name: "Joana Boleto" } });

  await page.goto("/dashboard/transactions?paymentMethod=pix");
  await expect(page.getByTestId("transactions-table").locator("tbody tr")).toHaveCount(2);
  const button = page.getByRole("link", { name: "Exportar CSV" });
  await expect(button).toHaveAttribute("href", "/dashboard/transactions/export?paymentMethod=pix");
  await shotFromTop(page, "transactions-export-desktop");
  await expectAccessible(page, "transactions page with export");

  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^transacoes-arara-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = bytes.toString("utf8").slice(1).trimEnd().split("\r\n");
  expect(lines[0].split(";").slice(0, 16)).toEqual([
    "id",
    "criada_em",
    "status",
    "meio",
    "valor",
    "valor_pago",
    "tarifa",
    "liquido",
    "parcelas",
    "cliente",
    "email",
    "documento",
    "telefone",
    "referencia_externa",
    "pago_em",
    "reembolsado",
  ]);
  expect(lines).toHaveLength(3);
  // Newest first: the PIX made last, then the one with a formula for a name, neutralised.
  expect(lines[1].startsWith(`${pix.id};`)).toBe(true);
  expect(lines[2].startsWith(`${formula.id};`)).toBe(true);
  expect(lines[2]).toContain(`;"'=HYPERLINK(""x"")";`);
  expect(lines[2]).toContain(";Pendente;PIX;123,45;0,00;;;1;");
  expect(lines[2]).toContain(";pedido-7;");
  const csv = lines.join("\n");
  expect(csv).not.toContain("Alheio");
  expect(csv).not.toContain("Joana Boleto");

  // At a phone's width the button is there too.
  await page.setViewportSize(PHONE_390);
  await page.goto("/dashboard/transactions?paymentMethod=pix");
  await expect(page.getByRole("link", { name: "Exportar CSV" })).toBeVisible();
  await shotFromTop(page, "transactions-export-phone");

  // No session, no file: the login.
  const anonymous = await request.get("/dashboard/transactions/export", { maxRedirects: 0 });
  // (The dashboard's proxy answers before the route does: 307 to the login, like any dashboard page.)
  expect([303, 307]).toContain(anonymous.status());
  expect(anonymous.headers().location).toContain("/login");
});
