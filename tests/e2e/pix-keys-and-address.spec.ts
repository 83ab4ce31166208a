/**
 * The PIX key fields of the sign-up, the settings and the cash-out form refuse a mistyped CPF and a
 * landline with a message that says how to write a phone key, and the settings keep the merchant's
 * postal address (printed on boletos). Screenshots at phone and desktop widths.
 */
import { mkdirSync } from "node:fs";
import { randomInt } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { basicAuth, createCharge, randomCpf, signUp } from "./dashboard-helpers";

const PHONE_VIEW = { width: 390, height: 844 };
const DESKTOP_VIEW = { width: 1440, height: 900 };
const MISTYPED_CPF = "CPF inválido: confira os dígitos. Se for um celular, escreva com +55, como +55 11 98765-4321.";
const LANDLINE = /^Celular inválido: .*Telefone fixo não pode ser chave PIX\.$/;

async function shoot(page: Page, name: string) {
  mkdirSync("test-results/pix-keys", { recursive: true });
  for (const [label, size] of [["phone", PHONE_VIEW], ["desktop", DESKTOP_VIEW]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `test-results/pix-keys/${name}-${label}.png`, fullPage: true });
  }
}

test("sign-up refuses a mistyped CPF as PIX key and takes the phone written with +55", async ({ page }) => {
  const password = "senha-segura-2026";
  await page.goto("/signup");
  await page.getByLabel("Nome da empresa").fill("Loja Chave Errada");
  await page.getByLabel("CPF ou CNPJ").fill(randomCpf());
  await page.getByLabel("Cidade", { exact: true }).fill("Curitiba");
  await page.getByLabel("E-mail de acesso").fill(`chave.${Date.now().toString(36)}.${randomInt(1e6)}@example.com`);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByLabel("Confirme a senha").fill(password);
  await page.getByLabel("Chave PIX de recebimento (opcional)").fill("111.444.777-30");
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.locator("#pixKey-error")).toHaveText(MISTYPED_CPF);
  await shoot(page, "signup-mistyped-cpf");

  await page.getByLabel("Chave PIX de recebimento (opcional)").fill("+55 11 98765-4321");
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.getByRole("heading", { name: "Conta criada!" })).toBeVisible();
  const secretKey = (await page.getByTestId("signup-secret-key").textContent())!.trim();
  const publicKey = (await page.getByTestId("signup-public-key").textContent())!.trim();
  const company = await page.request.get("/api/v1/company", { headers: { authorization: basicAuth({ publicKey, secretKey }) } });
  expect((await company.json()).data).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
});

test("settings and cash-out refuse a mistyped CPF and a landline; the address is saved and printed on boletos", async ({ page }) => {
  const merchant = await signUp(page, "Padaria Endereço Ltda");

  await page.goto("/dashboard/settings");
  // The city's hint says where it shows (it was never rendered: the error slot always took its place).
  await expect(page.getByText("Aparece no QR Code PIX (sem acentos, até 15 letras).")).toBeVisible();
  const key = page.getByLabel("Chave", { exact: true });
  await key.fill("111.444.777-30");
  await expect(page.locator("#pixKey-status")).toHaveText(MISTYPED_CPF);
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(page.getByText("Revise os campos destacados.")).toBeVisible();
  await key.fill("+55 11 3333-4444");
  await page.getByLabel("Tipo").selectOption("phone");
  await expect(page.locator("#pixKey-status")).toHaveText(LANDLINE);

  await key.fill("+55 11 98765-4321");
  await page.getByLabel("Tipo").selectOption("");
  await expect(page.locator("#pixKey-status")).toHaveText("Telefone válido: +5511987654321");
  await page.getByLabel("CEP").fill("01310-100");
  await page.getByLabel("Logradouro").fill("Av. Paulista");
  await page.getByLabel("Número").fill("1000");
  await page.getByLabel("Complemento").fill("Conj. 12");
  await page.getByLabel("Bairro").fill("Bela Vista");
  await page.getByLabel("Município").fill("São Paulo");
  await page.getByLabel("UF").fill("XX");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(page.locator("#address\\.state-error")).toHaveText("Use a sigla do estado (UF), como SP.");
  // What was typed stays in the form next to the error.
  await expect(page.getByLabel("CEP")).toHaveValue("01310-100");
  await expect(page.getByLabel("Chave", { exact: true })).toHaveValue("+55 11 98765-4321");
  await shoot(page, "settings-errors");
  await page.getByLabel("UF").fill("sp");
  await page.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Dados salvos." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("CEP")).toHaveValue("01310100");
  await expect(page.getByLabel("UF")).toHaveValue("SP");
  await expect(page.getByLabel("Chave", { exact: true })).toHaveValue("+5511987654321");
  await shoot(page, "settings-saved");

  // The boleto prints the address saved here (its text is checked in tests/integration/boleto-pdf.test.ts).
  const boleto = await createCharge(page.request, merchant, { paymentMethod: "boleto" });
  const pdf = await page.request.get(`/checkout/${boleto.secureId}/boleto.pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");

  await page.goto("/dashboard/cash-out");
  await page.getByLabel("Valor (R$)").fill("1,00");
  await page.getByLabel("Chave PIX de destino").fill("111.444.777-30");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.locator("#pixkey-msg")).toHaveText(MISTYPED_CPF);
  await shoot(page, "cash-out-mistyped-cpf");
  await page.getByLabel("Chave PIX de destino").fill("+55 11 3333-4444");
  await page.getByLabel("Tipo da chave").selectOption("phone");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.locator("#pixkey-msg")).toHaveText(LANDLINE);
});
