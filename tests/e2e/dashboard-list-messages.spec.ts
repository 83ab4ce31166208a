/**
 * The transactions list says what is wrong instead of an empty list: a page past the last one (with a
 * link to the last page), which filter was ignored for an invalid value, a date range given backwards
 * (with a link that swaps it); and the default webhook URL form says that http:// or https:// is
 * required for another scheme.
 */
import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE_390, createCharge, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(120_000);

test("the transactions list names what is wrong: a page past the last, an invalid filter, a reversed range", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Mensagens da Lista");
  for (let i = 0; i < 3; i++) await createCharge(request, m, { paymentMethod: "pix", amount: 1_000 + i });
  const rows = page.getByTestId("transactions-table").locator("tbody tr");

  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_390],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/transactions?page=99");
    const beyond = page.getByTestId("beyond-last-page");
    await expect(beyond).toContainText("Página além da última");
    await expect(beyond).toContainText("a página 99 não existe");
    await expect(page.getByText("Nenhuma transação ainda")).toHaveCount(0);
    await expect(page.getByText("página 99 de 1")).toHaveCount(0);
    await shotFromTop(page, `transactions-beyond-last-${label}`);
  }
  await expectAccessible(page, "transactions page past the last page");
  await page.getByRole("link", { name: "Ir para a última página (1)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/transactions$/);
  await expect(rows).toHaveCount(3);

  // An invalid value is named, and only that filter is ignored.
  await page.setViewportSize(DESKTOP);
  await page.goto("/dashboard/transactions?status=quase-pago&paymentMethod=pix");
  await expect(page.getByTestId("invalid-filters")).toHaveText("O filtro “Status” tem um valor inválido e foi ignorado.");
  await expect(rows).toHaveCount(3);
  await page.goto("/dashboard/transactions?from=31/12/2026&paymentMethod=cheque");
  await expect(page.getByTestId("invalid-filters")).toHaveText("Os filtros “De” e “Meio” têm valores inválidos e foram ignorados.");
  await expect(rows).toHaveCount(3);

  // From after to: said, with the swap, instead of "Nenhuma transação encontrada".
  await page.goto("/dashboard/transactions?from=2026-05-10&to=2026-05-01");
  await expect(page.getByTestId("reversed-range")).toContainText("O período está invertido: “De” (10/05/2026) é depois de “Até” (01/05/2026)");
  await expect(page.getByText("Nenhuma transação encontrada")).toHaveCount(0);
  await shotFromTop(page, "transactions-reversed-range-desktop");
  await page.getByRole("link", { name: "Trocar as datas" }).click();
  await expect(page).toHaveURL(/from=2026-05-01&to=2026-05-10/);
  await expect(page.getByLabel("De")).toHaveValue("2026-05-01");
});

test("the default webhook URL says http:// or https:// is required for another scheme", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, "Loja URL FTP");
  await page.goto("/dashboard/developers");
  const field = page.getByLabel("URL de webhook padrão");
  await field.fill("ftp://x");
  await page.getByRole("button", { name: "Salvar URL" }).click();
  await expect(page.getByText("A URL precisa começar com http:// ou https:// (ftp:// não é aceito).")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "URL de webhook" })).toHaveText("URL de webhook inválida.");
  await expect(field).toHaveValue("ftp://x");
  await expect(field).toHaveAttribute("aria-describedby", /webhookUrl-error/);
  await page.setViewportSize(PHONE_390);
  await shotFromTop(page, "developers-webhook-url-ftp-phone");
});
