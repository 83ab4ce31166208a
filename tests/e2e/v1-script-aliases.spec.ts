/**
 * The browser script's family names in Chromium: a store page on its own origin loads
 * <script src="<gateway>/v1/js"> and tokenizes through Payout, JunglePagamentos, PaymentGateway and
 * Arara as the family's stores call them (awaited setPublicKey, setTestMode, expMonth/expYear); the
 * store's backend then charges the token through /v1 and reads `status` at the top level.
 */
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { CUSTOMER } from "./checkout-helpers";

// The store: a real page on its own origin (another port), as a merchant's site would serve it.
const STORE_PORT = Number(process.env.E2E_PORT || 3100) + 1;
const STORE = `http://127.0.0.1:${STORE_PORT}`;
let store: Server;

test.beforeAll(async ({ baseURL }) => {
  const html = `<!doctype html><html lang="pt-BR"><head><title>Loja</title><script src="${baseURL}/v1/js"></script></head><body><h1>Loja</h1></body></html>`;
  store = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((resolve) => store.listen(STORE_PORT, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => store.close(resolve));
});
const FAMILY_AUTH = `Basic ${Buffer.from(`${DEMO.secretKey}:x`).toString("base64")}`;

for (const name of ["Payout", "JunglePagamentos", "PaymentGateway", "Arara"]) {
  test(`${name}.encrypt tokenizes a card from a store page and the token charges through /v1`, async ({ page, request }) => {
    await page.goto(`${STORE}/checkout`);
    const token = await page.evaluate(
      async ({ name, pk }) => {
        const sdk = (window as unknown as Record<string, any>)[name];
        await sdk.setPublicKey(pk);
        sdk.setTestMode(true);
        return sdk.encrypt({ number: "4111111111111111", holderName: "MARIA SILVA", expMonth: 12, expYear: 2034, cvv: "123" });
      },
      { name, pk: DEMO.publicKey },
    );
    expect(token).toMatch(/^ct_/);

    const res = await request.post("/v1/transactions", {
      headers: { authorization: FAMILY_AUTH },
      data: {
        paymentMethod: "credit_card",
        amount: 4990,
        installments: 1,
        card: { hash: token },
        customer: CUSTOMER,
        items: [{ title: "Assinatura", unitPrice: 4990, quantity: 1 }],
      },
    });
    expect(res.status()).toBe(201);
    const tx = await res.json();
    expect(tx.status).toBe("paid");
    expect(tx.card.lastDigits).toBe("1111");
  });
}

test("a bad card rejects with the field errors, under a family name", async ({ page }) => {
  await page.goto(`${STORE}/checkout`);
  const err = await page.evaluate(async (pk) => {
    const sdk = (window as unknown as Record<string, any>).JunglePagamentos;
    sdk.setPublicKey(pk);
    return sdk
      .encrypt({ number: "4111111111111112", holderName: "MARIA SILVA", expMonth: 12, expYear: 2034, cvv: "123" })
      .then(() => null, (e: { status: number; errors: { field: string }[] }) => ({ status: e.status, fields: e.errors.map((x) => x.field) }));
  }, DEMO.publicKey);
  expect(err).toEqual({ status: 400, fields: ["number"] });
});
