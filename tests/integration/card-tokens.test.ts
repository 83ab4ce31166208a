import vm from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, CARD, cardBody, tokenize } from "../helpers/cash-in";
import { getDb } from "@/lib/db/client";
import { eq } from "drizzle-orm";
import { cardTokenUses, transactions } from "@/lib/db/schema";
import { tokenizeCard } from "@/lib/services/transactions/tokenize-card";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Tokens A");
  b = await createTestAccount("Loja Tokens B");
});

const tokenizeRaw = (query: string, body: unknown, headers: Record<string, string> = {}) =>
  call("POST", `/api/v1/card-token${query}`, { body, headers });
const charge = (account: CreatedAccount, body: unknown) => call("POST", "/api/v1/transactions", { auth: account.secretKey, body });

describe("POST /api/v1/card-token", () => {
  it("returns the token as text/plain, without quotes, open to any origin", async () => {
    const res = await tokenizeRaw(`?publicKey=${a.publicKey}`, CARD, { origin: "https://loja.example" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.text).toMatch(/^ct_[A-Za-z0-9_-]+$/);
    expect(res.text).not.toContain(CARD.number);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers the CORS preflight", async () => {
    const res = await call("OPTIONS", `/api/v1/card-token?publicKey=${a.publicKey}`, {
      headers: { origin: "https://loja.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toContain("content-type");
  });

  it("CORS is for this route only", async () => {
    const res = await call("GET", "/api/v1/transactions", { auth: a.secretKey, headers: { origin: "https://loja.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("accepts numbers and the { card: {...} } wrapper", async () => {
    const res = await tokenizeRaw(`?publicKey=${a.publicKey}`, {
      card: { number: 4242424242424242, holderName: "Ana", expirationMonth: 3, expirationYear: 31, cvv: 456 },
    });
    expect(res.status).toBe(200);
    const created = await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: res.text } }));
    expect(created.status).toBe(201);
    expect(created.body.data.card).toMatchObject({ holderName: "Ana", expirationMonth: "03", expirationYear: "2031", lastDigits: "4242" });
  });

  it.each([
    ["missing publicKey", ""],
    ["unknown publicKey", "?publicKey=pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["a secret key as publicKey", "?publicKey=__SK__"],
  ])("%s is a 401 in the error body, still readable cross-origin", async (_name, query) => {
    const res = await tokenizeRaw(query.replace("__SK__", a.secretKey), CARD);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, status: 401, code: "unauthorized" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it.each([
    ["number fails Luhn", { number: "4242424242424241" }, "number"],
    ["number missing", { number: undefined }, "number"],
    ["expiry year in the past", { expirationYear: "2020" }, "expirationYear"],
    ["expiry month 13", { expirationMonth: "13" }, "expirationMonth"],
    ["CVV of 4 digits on Visa", { cvv: "1234" }, "cvv"],
    ["CVV of 3 digits on Amex", { number: "378282246310005", cvv: "123" }, "cvv"],
    ["holder name missing", { holderName: "" }, "holderName"],
  ])("%s is a 400 naming the field", async (_name, over, field) => {
    const res = await tokenizeRaw(`?publicKey=${a.publicKey}`, { ...CARD, ...over });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    expect(res.text).not.toContain(String((over as any).number ?? CARD.number));
  });

  it("names wrapped fields as sent", async () => {
    const res = await tokenizeRaw(`?publicKey=${a.publicKey}`, { card: { ...CARD, cvv: "12" } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.field)).toEqual(["card.cvv"]);
  });

  it("malformed JSON is a 400", async () => {
    const res = await call("POST", `/api/v1/card-token?publicKey=${a.publicKey}`, { rawBody: "{number:", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
  });
});

describe("card tokens at charge time", () => {
  it("a token pays for one charge only: reuse is a 422", async () => {
    const body = await cardBody(a.publicKey);
    expect((await charge(a, body)).status).toBe(201);
    const again = await charge(a, { ...body, externalRef: "second" });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: "unprocessable" });
    expect(again.body.message).toMatch(/already used/);
  });

  it("charges racing with one token: one is charged, the others are 422, and one transaction and one use are written", async () => {
    const c = await createTestAccount("Loja Tokens Corrida");
    const body = await cardBody(c.publicKey);
    // On PostgreSQL the charges run on several connections: the claims serialise on the use's key.
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => charge(c, { ...body, externalRef: `corrida-${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.message).toMatch(/already used/);
    const charged = results.find((r) => r.status === 201)!.body.data;
    expect(charged.status).toBe("paid");
    const rows = await getDb().select().from(transactions).where(eq(transactions.companyId, c.companyId));
    expect(rows.map((t) => t.id)).toEqual([charged.id]);
    const uses = await getDb().select().from(cardTokenUses).where(eq(cardTokenUses.companyId, c.companyId));
    expect(uses).toHaveLength(1);
    const ttl = uses[0].expiresAt.getTime() - uses[0].usedAt.getTime();
    expect(ttl).toBeGreaterThan(4 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(5 * 60 * 1000);
  });

  it("an expired token (made 5 minutes ago) is a 422", async () => {
    const sixMinutesAgo = new Date(Date.now() - 6 * 60 * 1000);
    const hash = await tokenizeCard(a.publicKey, CARD, sixMinutesAgo);
    const res = await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash } }));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/expired/);
    // Still within its 5 minutes: accepted.
    const fresh = await tokenizeCard(a.publicKey, CARD, new Date(Date.now() - 4 * 60 * 1000));
    expect((await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: fresh } }))).status).toBe(201);
  });

  it("another account's token is a 422", async () => {
    const hash = await tokenize(b.publicKey);
    const res = await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash } }));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/another account/);
    // ...and it was not spent: its own account can still use it.
    expect((await charge(b, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash } }))).status).toBe(201);
  });

  it.each([
    ["garbage", "not-a-token"],
    ["a tampered token", "__TAMPER__"],
    ["a token of another format", "ct_aGVsbG8gd29ybGQgdGhpcyBpcyBub3QgYSB0b2tlbg"],
  ])("%s is a 422", async (_name, hash) => {
    let value = hash;
    if (hash === "__TAMPER__") {
      const t = await tokenize(a.publicKey);
      const i = Math.floor(t.length / 2);
      value = t.slice(0, i) + (t[i] === "A" ? "B" : "A") + t.slice(i + 1);
    }
    const res = await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: value } }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "card.hash", message: expect.stringMatching(/not valid/) }]);
  });

  it("a charge that fails validation does not spend the token", async () => {
    const body = await cardBody(a.publicKey);
    const bad = await charge(a, { ...body, customer: { ...body.customer, email: "nope" } });
    expect(bad.status).toBe(400);
    expect((await charge(a, body)).status).toBe(201);
  });

  it("records only the token's random id, its account and expiry", async () => {
    const rows = await getDb().select().from(cardTokenUses);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(["companyId", "expiresAt", "tokenId", "usedAt"]);
      expect(r.tokenId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    }
  });
});

describe("GET /api/v1/js", () => {
  it("serves a cacheable browser script", async () => {
    const res = await call("GET", "/api/v1/js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/javascript/);
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
  });

  /** Runs the script as a browser would, its fetch answered by the real route handlers. */
  async function loadScript(scriptSrc: string) {
    const source = (await call("GET", "/api/v1/js")).text;
    const requests: string[] = [];
    const window: Record<string, any> = {};
    const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
      requests.push(url);
      const u = new URL(url);
      const res = await call(init.method, u.pathname + u.search, { rawBody: init.body, headers: init.headers });
      return { ok: res.status >= 200 && res.status < 300, status: res.status, text: async () => res.text };
    };
    vm.runInNewContext(source, { window, document: { currentScript: { src: scriptSrc } }, location: { href: "https://loja.example/checkout", origin: "https://loja.example" }, fetch, URL, JSON, Promise, Error });
    return { Arara: window.Arara as { setPublicKey(pk: string): void; encrypt(card: unknown): Promise<string> }, requests };
  }

  it("window.Arara.encrypt posts to the card-token route of the script's own host and yields a usable token", async () => {
    const { Arara, requests } = await loadScript("https://pay.arara.example/api/v1/js");
    await expect(Arara.encrypt(CARD)).rejects.toThrow(/setPublicKey/);
    expect(() => Arara.setPublicKey(a.secretKey)).toThrow(/public key/);
    Arara.setPublicKey(a.publicKey);
    const token = await Arara.encrypt(CARD);
    expect(requests).toEqual([`https://pay.arara.example/api/v1/card-token?publicKey=${a.publicKey}`]);
    const res = await charge(a, baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: token } }));
    expect(res.status).toBe(201);
  });

  it("rejects with the field errors of a bad card", async () => {
    const { Arara } = await loadScript("https://pay.arara.example/api/v1/js");
    Arara.setPublicKey(a.publicKey);
    const err = await Arara.encrypt({ ...CARD, number: "4242424242424241" }).catch((e: any) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(400);
    expect(err.errors.map((e: any) => e.field)).toEqual(["number"]);
  });
});
