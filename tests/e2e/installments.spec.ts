/**
 * Installments the merchant decides, end to end on a phone and a desktop: the merchant sets
 * Parcelamento in the dashboard (6x, 3 interest-free, 1,99% a month) and sees the preview; a payer
 * opens a payment link, sees each option with its total, and pays in an interest-bearing one; the
 * card is charged the Price-table total. The chosen method's border is the merchant's brand colour.
 * Expected centavos are computed by hand (Python, exact fractions), not by the code under test.
 */
import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, PHONE, basicAuth, expectAccessible, screenshot, signUp } from "./dashboard-helpers";
import { fillCard, fillPayer, pathOf } from "./checkout-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
// Sign-up, two dashboard pages and a whole payment: more than the default minute on a shared machine.
test.setTimeout(150_000);

const BRAND = "#7c2d12";

async function setInstallments(page: Page, shot: string) {
  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Parcelamento" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Parcelamento" })).toBeVisible();
  await page.getByLabel("Número máximo de parcelas").selectOption("6");
  await page.getByLabel("Parcelas sem juros").selectOption("3");
  await page.getByLabel("Juros ao mês cobrados do pagador (%)").fill("1,99");
  await page.getByRole("button", { name: "Salvar parcelamento" }).click();
  await expect(page.getByRole("status")).toContainText("Parcelamento salvo");
  await expect(page.getByLabel("Número máximo de parcelas")).toHaveValue("6");
  await expect(page.getByLabel("Parcelas sem juros")).toHaveValue("3");
  // R$ 1.000,00 in 6x at 1,99% a month: 178,4687… -> R$ 178,47, R$ 1.070,82 in all.
  const preview = page.getByTestId("installments-preview");
  await expect(preview.getByRole("row")).toHaveCount(7);
  await expect(preview.getByRole("row").nth(3)).toContainText("R$ 333,33");
  await expect(preview.getByRole("row").nth(3)).toContainText("sem juros");
  await expect(preview.getByRole("row").nth(6)).toContainText("R$ 178,47");
  await expect(preview.getByRole("row").nth(6)).toContainText("R$ 1.070,82");
  await expectAccessible(page, "Parcelamento saved");
  // On a phone the preview table scrolls inside its card: the form's fields and button stay within the card.
  const card = await page.getByRole("region", { name: "Parcelamento no cartão" }).boundingBox();
  for (const inner of [page.getByRole("button", { name: "Salvar parcelamento" }), page.getByLabel("Juros ao mês cobrados do pagador (%)")]) {
    const box = await inner.boundingBox();
    expect(box!.x + box!.width, "a field wider than its card").toBeLessThanOrEqual(card!.x + card!.width);
  }
  await screenshot(page, `${shot}-parcelamento`);

  // A mistake is explained beside its field.
  await page.getByLabel("Juros ao mês cobrados do pagador (%)").fill("12,5");
  await page.getByRole("button", { name: "Salvar parcelamento" }).click();
  await expect(page.getByText("Juros ao mês deve ser no máximo 10,00% ao mês.")).toBeVisible();
  await expectAccessible(page, "Parcelamento error");
}

async function setBrandColour(page: Page) {
  await page.goto("/dashboard/settings/branding");
  await page.getByLabel("Cor da marca").fill(BRAND);
  await page.getByRole("button", { name: "Salvar marca" }).click();
  await expect(page.getByRole("status")).toContainText("Marca salva");
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`${label}: the merchant's installment plan reaches the payer, who pays 6x with interest`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const m = await signUp(page, `Loja Parcelas ${label}`);
    await page.goto("/dashboard");
    await setInstallments(page, `installments-${label}`);
    await setBrandColour(page);

    const res = await request.post("/api/v1/checkouts", {
      headers: { authorization: basicAuth(m) },
      data: { items: [{ title: "Mochila de trilha", unitPrice: 15_900, quantity: 1 }], methods: ["pix", "credit_card"] },
    });
    expect(res.status()).toBe(201);
    const link = (await res.json()).data as { secureUrl: string };

    await page.context().clearCookies();
    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByTestId("method-credit_card")).toContainText("Em até 6x (3x sem juros)");
    await page.getByTestId("method-credit_card").click();
    // The border eases to the colour (a 0.15 s transition).
    await expect.poll(() => page.getByTestId("method-credit_card").evaluate((el) => getComputedStyle(el).borderTopColor)).toBe("rgb(124, 45, 18)");
    await fillPayer(page);
    await fillCard(page, "4242424242424242");
    const options = page.getByTestId("card-installments").locator("option");
    await expect(options).toHaveCount(6);
    // R$ 159,00: 3x of 53,00 interest-free; 6x at 1,99%: 28,3779… -> 28,38, 170,28 in all.
    await expect(options.nth(2)).toHaveText("3x de R$ 53,00 sem juros");
    await expect(options.nth(3)).toHaveText("4x de R$ 41,75 · total R$ 167,00");
    await expect(options.nth(5)).toHaveText("6x de R$ 28,38 · total R$ 170,28");
    await page.getByTestId("card-installments").selectOption("3");
    await expect(page.getByTestId("installment-interest")).toHaveCount(0);
    await expect(page.getByTestId("installment-total")).toHaveText("3x de R$ 53,00 sem juros: total no cartão R$ 159,00.");
    await page.getByTestId("card-installments").selectOption("6");
    // The order's total above stays R$ 159,00: the form says what the card is charged with interest.
    // A phone's closed select cuts a long option short: the note under it says the chosen plan in full,
    // with each amount on one line ("R$" and its figure joined by a no-break space).
    await expect(page.getByTestId("installment-interest")).toHaveText("6x de R$ 28,38 com juros do parcelamento (R$ 11,28): total no cartão R$ 170,28.");
    expect(await page.getByTestId("installment-interest").textContent()).toContain("R$\u00a011,28");
    await expectAccessible(page, "checkout with installment options");
    await screenshot(page, `installments-${label}-checkout`);
    await page.getByRole("button", { name: "Pagar R$ 170,28" }).click();

    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible();
    await expect(page.getByTestId("paid-screen")).toContainText("6x de R$ 28,38 · total R$ 170,28");
    await expectAccessible(page, "paid in installments");
    await screenshot(page, `installments-${label}-paid`);

    const list = await request.get("/api/v1/transactions?limit=1", { headers: { authorization: basicAuth(m) } });
    const [t] = (await list.json()).data.data as { amount: number; paidAmount: number; installments: number }[];
    expect(t).toMatchObject({ amount: 15_900, paidAmount: 17_028, installments: 6 });
  });
}
