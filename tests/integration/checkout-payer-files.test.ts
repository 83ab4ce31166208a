/**
 * The checkout's files a payer's browser opens (the PIX QR code's PNG, the boleto's PDF) when there
 * is no file to give: a stale link (unknown id, another method's file, a PIX paid or refunded, an
 * expired PIX) answers a small page in the payer's language, not the API's English JSON; an API
 * client still gets its JSON 404. An expired PIX's QR code is not served at all.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody } from "../helpers/cash-in";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Arquivos");
});

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8" };
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function charge(method: "pix" | "boleto") {
  const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: baseBody({ paymentMethod: method }) });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; secureId: string };
}
const simulate = (secureId: string) => call("POST", `/checkout/${secureId}/simulate`, { body: {}, headers: { "content-type": "application/json" } });

function expectPayerPage(res: { status: number; headers: Headers; text: string }, status: number, title: RegExp, linkTo: string | null) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.text).toMatch(/<html lang="pt-BR">/);
  expect(res.text).toMatch(title);
  expect(res.text).not.toMatch(/not found|"code"/i);
  if (linkTo) expect(res.text).toContain(`href="${linkTo}"`);
  else expect(res.text).not.toMatch(/<a /);
  // Styled under its own CSP, with no inline script.
  expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'; style-src 'nonce-/);
  expect(res.text).not.toMatch(/<script/);
}

describe("qr.png", () => {
  it("an unknown id, or a boleto's qr.png: a 404 page in Portuguese for a browser, the JSON 404 for an API client", async () => {
    expectPayerPage(await call("GET", `/checkout/${UNKNOWN}/qr.png`, { headers: BROWSER }), 404, /Pagamento não encontrado/, null);
    const boleto = await charge("boleto");
    expectPayerPage(await call("GET", `/checkout/${boleto.secureId}/qr.png`, { headers: BROWSER }), 404, /Pagamento não encontrado/, `/checkout/${boleto.secureId}`);
    const api = await call("GET", `/checkout/${UNKNOWN}/qr.png`, { headers: { accept: "application/json" } });
    expect(api.status).toBe(404);
    expect(api.body.code).toBe("not_found");
  });

  it("a PIX already paid: the page says the code is no longer available and links to the charge", async () => {
    const pix = await charge("pix");
    expect((await call("GET", `/checkout/${pix.secureId}/qr.png`, { headers: BROWSER })).headers.get("content-type")).toBe("image/png");
    expect((await simulate(pix.secureId)).status).toBe(200);
    expectPayerPage(await call("GET", `/checkout/${pix.secureId}/qr.png`, { headers: BROWSER }), 404, /Este código PIX não está mais disponível/, `/checkout/${pix.secureId}`);
  });

  it("an expired PIX's code is refused (410 for a browser, with the page's words; 404 JSON for an API client)", async () => {
    const pix = await charge("pix");
    await getDb().update(transactions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(transactions.secureId, pix.secureId));
    const res = await call("GET", `/checkout/${pix.secureId}/qr.png`, { headers: BROWSER });
    expectPayerPage(res, 410, /Este PIX expirou/, `/checkout/${pix.secureId}`);
    // Made through the API, not from a link: there is no link to ask again.
    expect(res.text).toContain("Peça uma nova cobrança à loja.");
    const api = await call("GET", `/checkout/${pix.secureId}/qr.png`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).not.toBe("image/png");
  });

  it("speaks English to a payer who chose English", async () => {
    const res = await call("GET", `/checkout/${UNKNOWN}/qr.png`, { headers: { ...BROWSER, cookie: "checkout_lang=en" } });
    expect(res.status).toBe(404);
    expect(res.text).toMatch(/<html lang="en">/);
    expect(res.text).toContain("Payment not found");
  });
});

describe("boleto.pdf", () => {
  it("an unknown id, or a PIX's boleto.pdf: a 404 page in Portuguese for a browser, the JSON 404 for an API client", async () => {
    expectPayerPage(await call("GET", `/checkout/${UNKNOWN}/boleto.pdf`, { headers: BROWSER }), 404, /Pagamento não encontrado/, null);
    const pix = await charge("pix");
    expectPayerPage(await call("GET", `/checkout/${pix.secureId}/boleto.pdf`, { headers: BROWSER }), 404, /Pagamento não encontrado/, `/checkout/${pix.secureId}`);
    const api = await call("GET", `/checkout/${UNKNOWN}/boleto.pdf`);
    expect(api.status).toBe(404);
    expect(api.body.code).toBe("not_found");
  });

  it("a boleto's PDF is still served to a browser", async () => {
    const boleto = await charge("boleto");
    const res = await call("GET", `/checkout/${boleto.secureId}/boleto.pdf`, { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });
});
