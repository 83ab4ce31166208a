/**
 * Against the built app as a real process (LOG_LEVEL=debug, the demo merchant, webhooks delivered
 * and signed): card data and secrets never reach the logs or the database, and the checkout pages
 * and API responses carry their security headers.
 *
 * Needs a build: NEXT_DIST_DIR=.next-proof node scripts/ensure-build.mjs, and the same NEXT_DIST_DIR
 * for vitest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { dumpDatabase, proofPort } from "../helpers/proof-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { DEMO } from "@/lib/services/accounts/demo-merchant";

const AMEX = "378282246310005";
const AMEX_CVV = "7391";
const VISA_REFUSED = "4000000000000002";
const VISA_REFUSED_CVV = "842";
const BAD_LUHN = "4242424242424241";
const BAD_LUHN_CVV = "519";

let db: TestDatabase;
let app: AppProcess;
let receiver: Receiver;
let logs = "";
let dump: Record<string, Record<string, unknown>[]> = {};
const tokens: string[] = [];
let secureId = "";
const auth = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, headers: res.headers, text, json };
}

async function tokenize(card: Record<string, string>) {
  const res = await fetch(`${app.url}/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(card),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const customer = { name: "Zelda Quintanilha", email: "zelda@example.com", document: { type: "cpf", number: "11144477735" } };
const items = [{ title: "Livro", unitPrice: 4200, quantity: 1, tangible: true }];

beforeAll(async () => {
  db = await createServerDatabase();
  receiver = await startReceiver(undefined, await proofPort());
  app = await startApp({
    port: await proofPort(),
    env: { ...db.env, LOG_LEVEL: "debug", DEMO_MERCHANT: "true", WEBHOOK_ALLOW_PRIVATE_URLS: "true", SANDBOX_PSP_DELAY_MS: "0" },
  });

  // An approved card (Amex, 4-digit CVV), a refused one, a bad one, and the errors around them.
  const good = await tokenize({ number: AMEX, holderName: "ZELDA Q", expirationMonth: "10", expirationYear: "2031", cvv: AMEX_CVV });
  expect(good.status, good.text).toBe(200);
  tokens.push(good.text);
  const refused = await tokenize({ number: VISA_REFUSED, holderName: "ZELDA Q", expirationMonth: "10", expirationYear: "2031", cvv: VISA_REFUSED_CVV });
  tokens.push(refused.text);
  expect((await tokenize({ number: BAD_LUHN, holderName: "Z", expirationMonth: "10", expirationYear: "2031", cvv: BAD_LUHN_CVV })).status).toBe(400);
  expect((await tokenize({ number: AMEX, holderName: "Z", expirationMonth: "01", expirationYear: "2001", cvv: AMEX_CVV })).status).toBe(400);
  const wrongKey = await fetch(`${app.url}/api/v1/card-token?publicKey=pk_test_nope`, { method: "POST", body: JSON.stringify({ number: AMEX, cvv: AMEX_CVV }) });
  expect(wrongKey.status).toBe(401);
  const brokenJson = await fetch(`${app.url}/api/v1/card-token?publicKey=${DEMO.publicKey}`, { method: "POST", body: `{"number":"${AMEX}","cvv":"${AMEX_CVV}"` });
  expect(brokenJson.status).toBe(400);

  const paid = await api("POST", "/api/v1/transactions", {
    paymentMethod: "credit_card",
    amount: 4200,
    customer,
    items,
    ip: "203.0.113.9",
    card: { hash: tokens[0] },
    postbackUrl: receiver.url,
  });
  expect(paid.status, paid.text).toBe(201);
  expect(paid.json.data.status).toBe("paid");
  secureId = paid.json.data.secureId;
  const refusedTx = await api("POST", "/api/v1/transactions", {
    paymentMethod: "credit_card",
    amount: 4200,
    customer,
    items,
    ip: "203.0.113.9",
    card: { hash: tokens[1] },
    postbackUrl: receiver.url,
  });
  expect(refusedTx.json.data.status).toBe("refused");
  // Errors: the token again (used), card data sent where it does not belong, bad credentials, broken JSON.
  expect((await api("POST", "/api/v1/transactions", { paymentMethod: "credit_card", amount: 4200, customer, items, ip: "203.0.113.9", card: { hash: tokens[0] } })).status).toBe(422);
  expect((await api("POST", "/api/v1/transactions", { paymentMethod: "credit_card", amount: 4200, customer, items, ip: "203.0.113.9", card: { number: AMEX, cvv: AMEX_CVV } })).status).toBe(400);
  expect((await api("POST", "/api/v1/transactions", { card: { number: AMEX, cvv: AMEX_CVV } }, { authorization: `Basic ${Buffer.from(`${DEMO.secretKey}x:`).toString("base64")}` })).status).toBe(401);
  expect((await api("POST", "/api/v1/transactions", `{"card":{"number":"${AMEX}","cvv":"${AMEX_CVV}"}`)).status).toBe(400);
  await api("POST", `/api/v1/transactions/${paid.json.data.id}/refund`, { amount: 100 });

  // Wait for the signed webhooks (approved + refused) to reach the receiver.
  const deadline = Date.now() + 30_000;
  while (receiver.hits.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(receiver.hits.length).toBeGreaterThanOrEqual(2);
  expect(receiver.hits[0].headers["webhook-signature"]).toMatch(/^v1,/);

  await collectHeaders();
  // Then stop the app (a PGlite directory can only be opened by one process) and read what it left.
  logs = app.logs();
  await app.stop();
  dump = await dumpDatabase(db.env);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  await db?.drop();
});

describe("card data and secrets stay out of logs and the database", () => {
  it("had logs (at debug) and every table to look at", () => {
    expect(logs.length).toBeGreaterThan(1000);
    expect(Object.keys(dump)).toEqual(expect.arrayContaining(["transactions", "card_token_uses", "webhook_events", "webhook_attempts"]));
  });

  const places = () => ({ logs, database: JSON.stringify(dump) });

  it("no full card number (PAN) anywhere", () => {
    for (const [where, text] of Object.entries(places())) {
      for (const pan of [AMEX, VISA_REFUSED, BAD_LUHN]) expect(text.includes(pan), `${pan} in ${where}`).toBe(false);
    }
    // What is kept: brand, first 6 and last 4 of the charged card.
    expect(places().database).toContain("378282");
    expect(places().database).toContain("0005");
  });

  it("no CVV anywhere (as a value of any field or JSON key)", () => {
    for (const [where, text] of Object.entries(places())) {
      for (const cvv of [AMEX_CVV, VISA_REFUSED_CVV, BAD_LUHN_CVV]) {
        expect(new RegExp(`"${cvv}"|[=:]\\s*${cvv}\\b|cvv\\W{0,4}${cvv}`, "i").test(text), `CVV ${cvv} in ${where}`).toBe(false);
      }
      expect(/"cvv"\s*:\s*"\d/i.test(text), `a cvv value in ${where}`).toBe(false);
    }
    for (const [table, rows] of Object.entries(dump)) {
      for (const row of rows) for (const [col, v] of Object.entries(row)) expect([AMEX_CVV, VISA_REFUSED_CVV, BAD_LUHN_CVV], `${table}.${col}`).not.toContain(String(v));
    }
  });

  it("no secret key, webhook secret or card token anywhere", () => {
    const whsecBody = DEMO.webhookSecret.slice("whsec_".length);
    for (const [where, text] of Object.entries(places())) {
      expect(text.includes(DEMO.secretKey), `sk in ${where}`).toBe(false);
      expect(text.includes(DEMO.secretKey.slice(8)), `sk body in ${where}`).toBe(false);
      expect(text.includes(DEMO.webhookSecret), `whsec in ${where}`).toBe(false);
      expect(text.includes(whsecBody), `whsec body in ${where}`).toBe(false);
      expect(/sk_(test|live)_[A-Za-z0-9]{20,}/.test(text), `an sk_ key in ${where}`).toBe(false);
      for (const t of tokens) expect(text.includes(t), `card token in ${where}`).toBe(false);
    }
    expect(/Basic [A-Za-z0-9+/=]{20,}/.test(logs), "a Basic credential in the logs").toBe(false);
  });
});

async function collectHeaders() {
  const page = await fetch(`${app.url}/checkout/${secureId}`);
  expect(page.status).toBe(200);
  checkoutHeaders = page.headers;
  checkoutHtml = await page.text();
  const apiRes = await api("GET", "/api/v1/company");
  apiHeaders = apiRes.headers;
  apiErrorHeaders = (await api("GET", "/api/v1/transactions/999999999")).headers;
  tokenHeaders = (await tokenize({ number: "4242424242424242", holderName: "A B", expirationMonth: "10", expirationYear: "2031", cvv: "123" })).headers;
  docsHeaders = (await fetch(`${app.url}/docs`)).headers;
}

let checkoutHeaders: Headers;
let checkoutHtml = "";
let apiHeaders: Headers;
let apiErrorHeaders: Headers;
let tokenHeaders: Headers;
let docsHeaders: Headers;

describe("security headers", () => {
  it("checkout page: CSP with a nonce and frame-ancestors 'none', no referrer, nosniff, no framing", () => {
    const csp = checkoutHeaders.get("content-security-policy") ?? "";
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/script-src[^;]*'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toMatch(/object-src 'none'/);
    expect(checkoutHeaders.get("referrer-policy")).toBe("no-referrer");
    expect(checkoutHeaders.get("x-content-type-options")).toBe("nosniff");
    expect(checkoutHeaders.get("x-frame-options")).toBe("DENY");
    // Next's own inline scripts carry the nonce of this response.
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const scripts = [...checkoutHtml.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s, s).toContain(`nonce="${nonce}"`);
  });

  it("API responses: JSON, nosniff, not cached, not framable, no CORS except card tokenization", () => {
    for (const h of [apiHeaders, apiErrorHeaders]) {
      expect(h.get("content-type")).toMatch(/^application\/json/);
      expect(h.get("x-content-type-options")).toBe("nosniff");
      expect(h.get("cache-control")).toMatch(/no-store/);
      expect(h.get("access-control-allow-origin")).toBeNull();
      expect(h.get("x-request-id")).toBeTruthy();
    }
    expect(tokenHeaders.get("access-control-allow-origin")).toBe("*");
    expect(tokenHeaders.get("cache-control")).toMatch(/no-store/);
    expect(tokenHeaders.get("x-content-type-options")).toBe("nosniff");
  });

  it("the reference page answers (server-rendered) without inheriting the checkout's CSP", () => {
    expect(docsHeaders.get("content-type")).toMatch(/text\/html/);
  });
});
