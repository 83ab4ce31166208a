/**
 * Helpers of the hosted checkout's browser tests: charges and links made through the real API with
 * the demo merchant's keys, accessibility checks with axe, screenshots, and watches on what the page
 * sends over the network and on Content-Security-Policy violations.
 */
import { mkdirSync } from "node:fs";
import { expect, type APIRequestContext, type Page, type Request } from "@playwright/test";
import postgres from "postgres";
import { DEMO } from "@/lib/services/accounts/demo-merchant";

export const AUTH = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;
export const CUSTOMER = { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } };
export const ITEMS = [
  { title: "Camiseta Arara Azul", unitPrice: 7995, quantity: 2, tangible: true },
  { title: "Frete expresso", unitPrice: 1290, quantity: 1, tangible: false },
];
export const TOTAL = 17_280;
export const GOOD_CARD = "4242424242424242";
export const DECLINED_CARD = "4000000000000002";

export async function createTransaction(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await request.post("/api/v1/transactions", {
    headers: { authorization: AUTH },
    data: { amount: TOTAL, items: ITEMS, customer: CUSTOMER, externalRef: "pedido-e2e", ...body },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).data as { id: number; secureId: string; secureUrl: string; status: string; pix?: { qrcode: string }; boleto?: { url: string; digitableLine: string } };
}

export async function createLink(request: APIRequestContext, body: Record<string, unknown> = {}) {
  const res = await request.post("/api/v1/checkouts", {
    headers: { authorization: AUTH },
    data: { items: [{ title: "Curso de fotografia", unitPrice: 29_900, quantity: 1 }], description: "Turma de março · 8 aulas online", ...body },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).data as { id: number; secureId: string; secureUrl: string; status: string };
}

export async function readLink(request: APIRequestContext, id: number) {
  const res = await request.get(`/api/v1/checkouts/${id}`, { headers: { authorization: AUTH } });
  return (await res.json()).data as { status: string; transactionId: number | null };
}

/** The path of a secureUrl (the API answers with the absolute URL on the checkout host). */
export const pathOf = (url: string) => new URL(url).pathname;

export { expectAccessible } from "./axe";

/**
 * Full-page screenshots into test-results/checkout/. Playwright empties test-results/ when any run
 * starts, and several people run tests in this tree: CHECKOUT_SCREENSHOTS moves them elsewhere.
 */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.CHECKOUT_SCREENSHOTS || "test-results/checkout";
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true, animations: "disabled" });
}

/** Collects console errors (CSP violations show up there) for the whole test. */
export function watchConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    // The app has no favicon yet; the browser's request for it is not the checkout's concern.
    if (m.type() === "error" && !/favicon/.test(m.location().url)) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  return () => errors;
}

/** Every request the page makes, with its body, to check where card data goes. */
export function recordRequests(page: Page): { url: string; method: string; body: string }[] {
  const log: { url: string; method: string; body: string }[] = [];
  page.on("request", (r: Request) => log.push({ url: r.url(), method: r.method(), body: r.postData() ?? "" }));
  return log;
}

/** The card number went to /api/v1/card-token and nowhere else (no other body, no URL). */
export function expectPanOnlyToTokenization(log: { url: string; body: string }[], pan: string) {
  const carrying = log.filter((r) => r.body.includes(pan) || r.url.includes(pan));
  expect(carrying.length, "the card number was sent to tokenization").toBeGreaterThan(0);
  for (const r of carrying) expect(new URL(r.url).pathname).toBe("/api/v1/card-token");
  // And the page's own pay route got only the token.
  const pays = log.filter((r) => /\/checkout\/[^/]+\/pay$/.test(new URL(r.url).pathname));
  expect(pays.length).toBeGreaterThan(0);
  for (const p of pays) {
    const body = JSON.parse(p.body) as Record<string, unknown>;
    expect(typeof body.cardToken).toBe("string");
    expect(JSON.stringify(body)).not.toMatch(/\d{12,19}/);
    expect(body).not.toHaveProperty("cvv");
  }
}

export async function fillCard(page: Page, pan: string) {
  await page.getByTestId("card-number").fill(pan);
  await page.getByTestId("card-holder").fill("Maria Silva");
  await page.getByTestId("card-expiry").fill("12/34");
  await page.getByTestId("card-cvv").fill("123");
}

export async function fillPayer(page: Page) {
  await page.getByTestId("payer-name").fill("Maria da Silva");
  await page.getByTestId("payer-email").fill("maria@example.com");
  await page.getByTestId("payer-document").fill("11144477735");
}

/** Marks the window; the mark survives only if the page is not reloaded. */
export async function markWindow(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 1));
}
export async function expectSameWindow(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
}

/**
 * Moves a transaction's expiry into the past. The API cannot (expiry is at least a day), so this
 * reaches into the e2e server's database; only possible on PostgreSQL, where that database is one of
 * the arara_e2e_* databases on the server named by DATABASE_URL. The row is found by its secureId.
 */
export async function expireTransaction(secureId: string): Promise<boolean> {
  const base = process.env.DATABASE_URL;
  if (!base) return false;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const dbs = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'arara_e2e_%'`;
  await admin.end();
  for (const { datname } of dbs) {
    const url = new URL(base);
    url.pathname = `/${datname}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`update transactions set expires_at = now() - interval '1 minute' where secure_id = ${secureId} returning id`;
      if (rows.length) return true;
    } catch {
      // A database being created or dropped by another run.
    } finally {
      await sql.end();
    }
  }
  return false;
}
