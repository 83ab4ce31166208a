/**
 * Helpers of the dashboard's browser tests: sign-up and sign-in through the real pages, charges made
 * through the real API with a merchant's own keys, screenshots at desktop and phone widths, and an
 * accessibility check with axe.
 */
import { mkdirSync } from "node:fs";
import { randomInt } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 412, height: 915 };

export type Merchant = { name: string; email: string; password: string; publicKey: string; secretKey: string };

/** A valid CPF with random base digits. */
export function randomCpf(): string {
  const d = Array.from({ length: 9 }, () => randomInt(10));
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  const dv = (ds: number[]) => {
    const r = ds.reduce((s, x, i) => s + x * (ds.length + 1 - i), 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  d.push(dv(d));
  d.push(dv(d));
  return d.join("");
}

export const basicAuth = (m: Pick<Merchant, "publicKey" | "secretKey">) =>
  `Basic ${Buffer.from(`${m.publicKey}:${m.secretKey}`).toString("base64")}`;

export const CUSTOMER = {
  name: "Joana Pereira",
  email: "joana.pereira@example.com",
  phone: "(11) 98765-4321",
  document: { type: "cpf", number: "11144477735" },
};

export async function createCharge(request: APIRequestContext, m: Merchant, body: Record<string, unknown>) {
  const amount = (body.amount as number | undefined) ?? 10_000;
  const res = await request.post("/api/v1/transactions", {
    headers: { authorization: basicAuth(m) },
    data: {
      paymentMethod: "pix",
      amount,
      customer: CUSTOMER,
      items: [{ title: "Kit café especial", unitPrice: amount, quantity: 1, tangible: true }],
      ...body,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { id: number; status: string; secureId: string };
}

export async function tokenizeCard(request: APIRequestContext, m: Merchant, number = "4242424242424242"): Promise<string> {
  const res = await request.post(`/api/v1/card-token?publicKey=${m.publicKey}`, {
    data: { number, holderName: "JOANA PEREIRA", expirationMonth: "12", expirationYear: "2031", cvv: "123" },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.text();
}

export async function signUp(page: Page, name: string, city = "Curitiba"): Promise<Merchant> {
  const email = `loja.${Date.now().toString(36)}.${randomInt(1e6)}@example.com`;
  const password = "senha-segura-2026";
  // Each merchant signs up from an address of its own, as real merchants do: the e2e server trusts
  // 127.0.0.1 as its proxy (TRUSTED_PROXIES), so this header is the client's address. Without it,
  // every spec would sign up from 127.0.0.1 and meet the per-address sign-up limit (10 an hour).
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${1 + randomInt(254)}, 203.0.113.${1 + randomInt(254)}` });
  await page.goto("/signup");
  await page.getByLabel("Nome da empresa").fill(name);
  await page.getByLabel("CPF ou CNPJ").fill(randomCpf());
  await page.getByLabel("Cidade", { exact: true }).fill(city);
  await page.getByLabel("E-mail de acesso").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByLabel("Confirme a senha").fill(password);
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page.getByRole("heading", { name: "Conta criada!" })).toBeVisible();
  const publicKey = (await page.getByTestId("signup-public-key").textContent())!.trim();
  const secretKey = (await page.getByTestId("signup-secret-key").textContent())!.trim();
  expect(publicKey).toMatch(/^pk_test_[A-Za-z0-9]{24,}$/);
  expect(secretKey).toMatch(/^sk_test_[A-Za-z0-9]{32,}$/);
  return { name, email, password, publicKey, secretKey };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();
}

export async function signOut(page: Page) {
  const menu = page.getByRole("button", { name: "Abrir menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("button", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/login\?signedOut=1$/);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync("test-results/dashboard", { recursive: true });
  await page.screenshot({ path: `test-results/dashboard/${name}.png`, fullPage: true });
}

/** A phone 390 px wide (iPhone 12 to 15). */
export const PHONE_390 = { width: 390, height: 844 };
/** Where the screenshots to look at go, besides test-results/dashboard (SHOTS_DIR to change it). */
const SHOTS = process.env.SHOTS_DIR || "test-results/dashboard";

/** A full-page screenshot taken from the top (the phone layout's sticky header would otherwise be drawn over the middle), also to SHOTS_DIR. */
export async function shotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  if (SHOTS !== "test-results/dashboard") {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  }
}

export { expectAccessible } from "./axe";

/** The text of a money figure ("R$ 1.234,56") in a test id'd stat card. */
export const statValue = (page: Page, testId: string) => page.getByTestId(testId).locator("span").nth(1);
