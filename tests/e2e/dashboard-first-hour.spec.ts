/**
 * A merchant's first hour in the dashboard (UX audit): sign-up asks the city the PIX codes print;
 * the overview says the next steps ("Primeiros passos") with their state; forms refused by the
 * server keep what was typed (payment link, invitation); lowering the maximum installments brings
 * the interest-free count down with it; the phone menu closes on Escape. Screenshots at 1280 and 390 px.
 */
import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, PHONE_390, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

const stepState = (page: Page, id: string) => page.locator(`[data-testid="first-steps"] li[data-step="${id}"]`);

for (const [label, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE_390],
] as const) {
  test(`${label}: sign-up asks the city; the overview's first steps; a refused payment link keeps what was typed`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);

    // The city is required and must be a name: a refusal keeps the other fields.
    await page.goto("/signup");
    await page.getByLabel("Nome da empresa").fill("Loja Primeira Hora");
    await page.getByLabel("CPF ou CNPJ").fill("111.444.777-35");
    await page.getByLabel("Cidade", { exact: true }).fill("Curitiba 2");
    await page.getByLabel("E-mail de acesso").fill("primeira.hora@example.com");
    await page.getByLabel("Senha", { exact: true }).fill("senha-segura-2026");
    await page.getByLabel("Confirme a senha").fill("senha-segura-2026");
    await page.getByRole("button", { name: "Criar conta" }).click();
    await expect(page.locator("#city-error")).toContainText("Use só letras");
    await expect(page.getByLabel("Cidade", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Nome da empresa")).toHaveValue("Loja Primeira Hora");
    await shotFromTop(page, `first-hour-signup-city-${label}`);

    const m = await signUp(page, `Loja Primeira Hora ${label}`, "Florianópolis");
    await page.goto("/dashboard/settings");
    await expect(page.getByLabel("Cidade", { exact: true })).toHaveValue("Florianópolis");

    // A new account: the first steps, the city already given at sign-up.
    await page.goto("/dashboard");
    const card = page.getByTestId("first-steps");
    await expect(card.getByRole("heading", { level: 2, name: "Primeiros passos" })).toBeVisible();
    await expect(page.getByTestId("first-steps-count")).toHaveText("1 de 3 feitos");
    await expect(stepState(page, "payment_link")).toHaveAttribute("data-done", "false");
    await expect(stepState(page, "payment_link")).toContainText("A fazer");
    await expect(stepState(page, "api_keys")).toHaveAttribute("data-done", "false");
    await expect(stepState(page, "pix_details")).toHaveAttribute("data-done", "true");
    await expect(stepState(page, "pix_details")).toContainText("Feito");
    await expect(card.getByRole("link", { name: "Pegue as chaves da API" })).toHaveAttribute("href", "/dashboard/developers");
    await expect(card.getByRole("link", { name: "Confira os dados que aparecem no PIX" })).toHaveAttribute("href", "/dashboard/settings");
    await expectAccessible(page, "overview with first steps");
    await shotFromTop(page, `first-hour-overview-new-${label}`);

    // The first step's link opens the payment links page.
    await card.getByRole("link", { name: "Crie um link de pagamento" }).click();
    await expect(page).toHaveURL(/\/dashboard\/payment-links$/);

    // R$ 0,50 with card and boleto: refused, and the description, amount and methods stay.
    const form = page.getByRole("form", { name: "Novo link de pagamento" });
    await form.getByLabel("Descrição").fill("Adesivo da loja");
    await form.getByLabel("Valor (R$)").fill("0,50");
    await form.getByLabel("Expira em (dias, opcional)").fill("7");
    await form.getByRole("button", { name: "Criar link" }).click();
    await expect(form.getByText("Boleto e cartão exigem pelo menos R$ 1,00; para menos, ofereça só PIX.")).toBeVisible();
    await expect(form.getByLabel("Descrição")).toHaveValue("Adesivo da loja");
    await expect(form.getByLabel("Valor (R$)")).toHaveValue("0,50");
    await expect(form.getByLabel("Expira em (dias, opcional)")).toHaveValue("7");
    for (const method of ["PIX", "Cartão de crédito", "Boleto"]) await expect(form.getByLabel(method)).toBeChecked();
    await shotFromTop(page, `first-hour-payment-link-refused-${label}`);

    // Only PIX: the link is created and the form is emptied for the next one.
    await form.getByLabel("Cartão de crédito").uncheck();
    await form.getByLabel("Boleto").uncheck();
    await form.getByRole("button", { name: "Criar link" }).click();
    await expect(page.getByTestId("new-link-url")).toBeVisible();
    await expect(form.getByLabel("Descrição")).toHaveValue("");
    await expect(form.getByLabel("Valor (R$)")).toHaveValue("");
    await expect(form.getByLabel("Cartão de crédito")).toBeChecked();

    await page.goto("/dashboard");
    await expect(page.getByTestId("first-steps-count")).toHaveText("2 de 3 feitos");
    await expect(stepState(page, "payment_link")).toHaveAttribute("data-done", "true");
    await shotFromTop(page, `first-hour-overview-link-done-${label}`);
    void m;
  });
}

test("an invitation refused by the server keeps the name and e-mail typed", async ({ page }) => {
  await page.setViewportSize(PHONE_390);
  const m = await signUp(page, "Loja Convite Recusado");
  await page.goto("/dashboard/settings/team");
  const form = page.getByRole("form", { name: "Convidar pessoa" });
  await form.getByLabel("Nome", { exact: true }).fill("Eu de Novo");
  await form.getByLabel("E-mail", { exact: true }).fill(m.email);
  await form.getByRole("button", { name: "Convidar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "já faz parte" })).toHaveText("Este e-mail já faz parte da equipe.");
  await expect(form.getByLabel("Nome", { exact: true })).toHaveValue("Eu de Novo");
  await expect(form.getByLabel("E-mail", { exact: true })).toHaveValue(m.email);
  await shotFromTop(page, "first-hour-invite-refused-phone");
});

test("lowering the maximum installments brings the interest-free count down; 1x alone saves", async ({ page }) => {
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_390],
  ] as const) {
    await page.setViewportSize(viewport);
    if (label === "desktop") await signUp(page, "Loja Só à Vista");
    await page.goto("/dashboard/settings/installments");
    const max = page.getByLabel("Número máximo de parcelas");
    const free = page.getByLabel("Parcelas sem juros");
    await max.selectOption("12");
    await free.selectOption("12");
    await max.selectOption("6");
    await expect(free).toHaveValue("6");
    await expect(free.locator('option[value="7"]')).toBeDisabled();
    await max.selectOption("1");
    await expect(free).toHaveValue("1");
    await page.getByRole("button", { name: "Salvar parcelamento" }).click();
    await expect(page.getByText("Parcelamento salvo.")).toBeVisible();
    await expect(page.locator("#interestFree-error")).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel("Número máximo de parcelas")).toHaveValue("1");
    await expect(page.getByLabel("Parcelas sem juros")).toHaveValue("1");
    await shotFromTop(page, `first-hour-installments-1x-${label}`);
    // Raising the maximum leaves the interest-free count where it was.
    await page.getByLabel("Número máximo de parcelas").selectOption("12");
    await expect(page.getByLabel("Parcelas sem juros")).toHaveValue("1");
  }
});

test("the phone menu closes on Escape and gives focus back to its button", async ({ page }) => {
  await page.setViewportSize(PHONE_390);
  await signUp(page, "Loja Menu Escape");
  await page.goto("/dashboard");
  const open = page.getByRole("button", { name: "Abrir menu" });
  await open.click();
  await expect(page.getByRole("button", { name: "Fechar menu" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("link", { name: "Extrato" })).toBeVisible();
  await page.getByRole("link", { name: "Extrato" }).focus();
  await page.keyboard.press("Escape");
  await expect(open).toHaveAttribute("aria-expanded", "false");
  await expect(open).toBeFocused();
  await expect(page.getByRole("link", { name: "Extrato" })).toBeHidden();
});
