/**
 * The real app (next start, LOG_LEVEL=debug) must never write a PAN or CVV to its logs, whatever
 * happens to the card: tokenized, charged, refused, reused, rejected by validation, or sent where
 * it does not belong. Needs a build: NEXT_DIST_DIR=.next-<x> node scripts/ensure-build.mjs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { baseBody } from "../helpers/cash-in";

const PAN = "5555555555554444";
const REFUSED_PAN = "4000000000009995";
const CVV = "947";
const card = (number: string) => ({ number, holderName: "CARLOS PEREIRA", expirationMonth: "07", expirationYear: "2032", cvv: CVV });

let app: AppProcess;
let db: TestDatabase;
let secretKey: string;
let publicKey: string;

beforeAll(async () => {
  db = await createServerDatabase();
  // The demo merchant's fixed keys give this process an account without touching its database.
  app = await startApp({ env: { ...db.env, LOG_LEVEL: "debug", DEMO_MERCHANT: "true" } });
  const { DEMO } = await import("@/lib/services/accounts/demo-merchant");
  secretKey = DEMO.secretKey;
  publicKey = DEMO.publicKey;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const auth = () => `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}`;
async function tokenize(body: unknown, query = `?publicKey=${publicKey}`) {
  return fetch(`${app.url}/api/v1/card-token${query}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}
async function charge(body: unknown) {
  return fetch(`${app.url}/api/v1/transactions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: auth() },
    body: JSON.stringify(body),
  });
}

describe("card data in the logs of the running app", () => {
  it("no PAN or CVV after tokenizing and charging through HTTP", async () => {
    const tokens: string[] = [];
    for (const number of [PAN, REFUSED_PAN]) {
      const res = await tokenize(card(number));
      expect(res.status).toBe(200);
      const token = await res.text();
      tokens.push(token);
      const created = await charge(baseBody({ paymentMethod: "credit_card", ip: "203.0.113.9", card: { hash: token } }));
      expect(created.status).toBe(201);
      const body = await created.json();
      expect(body.data.status).toBe(number === PAN ? "paid" : "refused");
      // Reuse: a 422 that must not echo the card either.
      expect((await charge(baseBody({ paymentMethod: "credit_card", ip: "203.0.113.9", card: { hash: token } }))).status).toBe(422);
    }
    // Bad tokenizations: wrong CVV length, an unknown public key, malformed JSON with the PAN inside.
    expect((await tokenize({ ...card(PAN), cvv: "94" })).status).toBe(400);
    expect((await tokenize(card(PAN), "?publicKey=pk_test_NotAKey000000000000000000")).status).toBe(401);
    const malformed = await fetch(`${app.url}/api/v1/card-token?publicKey=${publicKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"number": "${PAN}", "cvv": "${CVV}"`,
    });
    expect(malformed.status).toBe(400);
    // A card sent by mistake straight to the transactions endpoint (not tokenized).
    expect((await charge(baseBody({ paymentMethod: "credit_card", ip: "203.0.113.9", card: { ...card(PAN), hash: PAN } }))).status).toBe(422);

    await new Promise((r) => setTimeout(r, 500)); // let the last log lines flush
    const logs = app.logs();
    expect(logs).toMatch(/"path":"\/api\/v1\/card-token"/); // the requests were logged, at debug level
    expect(logs).toMatch(/"msg":"request"/);
    for (const pan of [PAN, REFUSED_PAN]) {
      expect(logs.includes(pan), `the logs contain ${pan}`).toBe(false);
      expect(logs.includes(pan.replace(/(\d{4})(?=\d)/g, "$1 ")), `the logs contain ${pan} spaced`).toBe(false);
    }
    expect(/cvv/i.test(logs), "the logs mention a cvv").toBe(false);
    expect(new RegExp(`\\b${CVV}\\b`).test(logs), "the logs contain the CVV").toBe(false);
    for (const token of tokens) expect(logs.includes(token), "the logs contain a card token").toBe(false);
  }, 60_000);
});
