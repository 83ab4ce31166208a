import { beforeAll, describe, expect, it } from "vitest";
import { basic, call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { paidPix } from "../helpers/money";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { rotateSecretKey } from "@/lib/services/accounts/accounts";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db/rows";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs } from "@/lib/db/schema";
import { authenticateSecretKey } from "@/lib/http/authenticate";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja A");
  b = await createTestAccount("Loja B");
});

function expectErrorBody(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, status, code });
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(5);
}

describe("HTTP Basic: every form real clients send", () => {
  const forms: [string, () => string][] = [
    ["sk:", () => basic(a.secretKey, "")],
    ["sk:x", () => basic(a.secretKey, "x")],
    ["pk:sk", () => basic(a.publicKey, a.secretKey)],
    ["sk:pk", () => basic(a.secretKey, a.publicKey)],
    ["sk with no colon", () => basic(a.secretKey)],
    ["lowercase scheme", () => basic(a.secretKey, "").replace("Basic", "basic")],
  ];
  it.each(forms)("accepts %s", async (_name, header) => {
    const res = await call("GET", "/api/v1/company", { headers: { authorization: header() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 200, data: { id: a.companyId } });
    expect(res.body.message).toBeUndefined();
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("401s", () => {
  const cases: [string, () => Record<string, string>][] = [
    ["no Authorization header", () => ({})],
    ["a public key alone", () => ({ authorization: basic(a.publicKey, "") })],
    ["a public key with x", () => ({ authorization: basic(a.publicKey, "x") })],
    ["a wrong secret key", () => ({ authorization: basic(`sk_test_${"Z".repeat(32)}`, "") })],
    ["a malformed secret key", () => ({ authorization: basic("sk_test_short", "") })],
    ["another account's public key with this secret", () => ({ authorization: basic(b.publicKey, a.secretKey) })],
    ["Bearer with the public key", () => ({ authorization: `Bearer ${a.publicKey}` })],
    ["Bearer with a wrong secret key", () => ({ authorization: `Bearer sk_test_${"Z".repeat(32)}` })],
    ["garbage base64", () => ({ authorization: "Basic %%%not-base64%%%" })],
    ["two secret keys", () => ({ authorization: basic(a.secretKey, b.secretKey) })],
  ];
  it.each(cases)("%s", async (_name, headers) => {
    const res = await call("GET", "/api/v1/company", { headers: headers() });
    expectErrorBody(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
  });

  it("a rotated (revoked) secret key stops working at once", async () => {
    const c = await createTestAccount("Loja C");
    expect((await call("GET", "/api/v1/company", { auth: c.secretKey })).status).toBe(200);
    const { secretKey } = await rotateSecretKey(c.companyId);
    expectErrorBody(await call("GET", "/api/v1/company", { auth: c.secretKey }), 401, "unauthorized");
    expect((await call("GET", "/api/v1/company", { auth: secretKey })).status).toBe(200);
  });
});

describe("the authenticating statement", () => {
  // Charges and cash-outs of an account without its own PSP read no settings: they trust what this
  // statement read (lib/services/cash-outs/payout-route.ts, lib/processors/api-pix/processor.ts).
  it("names the processor of the account's PSP settings, and a change is seen by the next request", async () => {
    const c = await createTestAccount("Loja PSP hint");
    const auth = () => authenticateSecretKey(new Request("http://localhost/api/v1/company"), c.secretKey);
    expect(await auth()).toMatchObject({ account: { id: c.companyId }, pspProcessor: null });
    await getDb().insert(accountPspConfigs).values({ companyId: c.companyId, processor: "api-pix", webhookToken: `hint-${c.companyId}-token-0123456789abcdef` });
    expect(await auth()).toMatchObject({ account: { id: c.companyId }, pspProcessor: "api-pix" });
    await getDb().update(accountPspConfigs).set({ processor: "sandbox" }).where(eq(accountPspConfigs.companyId, c.companyId));
    expect((await auth()).pspProcessor).toBe("sandbox");
    // Another account's settings are not this one's.
    expect((await authenticateSecretKey(new Request("http://localhost/api/v1/company"), a.secretKey)).pspProcessor).toBeNull();
  });
});

describe("a PIX charge's id, taken by the authenticating statement", () => {
  const company = () => new Request("http://localhost/api/v1/transactions", { method: "POST" });
  const pix = { paymentMethod: "pix", amount: 1500, customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } }, items: [{ title: "Camiseta", unitPrice: 1500, quantity: 1, tangible: true }] };

  it("is taken only for a request that goes on: never for an unknown key nor a key over its limit", async () => {
    const c = await createTestAccount("Loja ids");
    const first = await authenticateSecretKey(company(), c.secretKey, { reserveId: "transactions" });
    expect(first.account?.id).toBe(c.companyId);
    expect(first.reservedId).toEqual(expect.any(Number));
    // Without asking, nothing is taken.
    expect((await authenticateSecretKey(company(), c.secretKey)).reservedId).toBeNull();
    // An unknown key takes nothing: the next id follows the first.
    const unknown = await authenticateSecretKey(company(), `sk_test_${"x".repeat(32)}`, { reserveId: "transactions" });
    expect(unknown).toMatchObject({ account: null, reservedId: null });
    const second = await authenticateSecretKey(company(), c.secretKey, { reserveId: "transactions" });
    expect(second.reservedId).toBe(first.reservedId! + 1);
    // A key over its burst window takes nothing either.
    let limited = second;
    for (let i = 0; i < 400 && limited.rateLimitedSeconds === null; i++) limited = await authenticateSecretKey(company(), c.secretKey);
    expect(limited.rateLimitedSeconds).not.toBeNull();
    const over = await authenticateSecretKey(company(), c.secretKey, { reserveId: "transactions" });
    expect(over.rateLimitedSeconds).not.toBeNull();
    expect(over.reservedId).toBeNull();
    const [{ last }] = rowsOf<{ last: string }>(await getDb().execute(sql`select last_value::text as last from transactions_id_seq`));
    expect(Number(last)).toBe(second.reservedId);
  });

  it("is the id of the charge created over HTTP, and a boleto takes its id from its insert", async () => {
    const c = await createTestAccount("Loja ids HTTP");
    const charged = await call("POST", "/api/v1/transactions", { auth: c.secretKey, body: pix });
    expect(charged.status).toBe(201);
    const boleto = await call("POST", "/api/v1/transactions", { auth: c.secretKey, body: { ...pix, paymentMethod: "boleto" } });
    expect(boleto.status).toBe(201);
    expect(boleto.body.data.id).toBe(charged.body.data.id + 1);
    const again = await call("POST", "/api/v1/transactions", { auth: c.secretKey, body: pix });
    expect(again.body.data.id).toBe(boleto.body.data.id + 1);
    // The PIX code carries the id the charge was given (its txid starts with it, zero-padded).
    expect(again.body.data.pix.qrcode).toContain(String(again.body.data.id).padStart(16, "0"));
    // A PIX charge the body then refuses leaves its id unused: a gap, as a rolled-back insert leaves.
    const refused = await call("POST", "/api/v1/transactions", { auth: c.secretKey, body: { ...pix, amount: -1 } });
    expect(refused.status).toBe(400);
    const after = await call("POST", "/api/v1/transactions", { auth: c.secretKey, body: pix });
    expect(after.body.data.id).toBe(again.body.data.id + 2);
    // A body that is not JSON still answers 401 to a wrong key, and 400 to a right one.
    expectErrorBody(await call("POST", "/api/v1/transactions", { auth: `sk_test_${"y".repeat(32)}`, rawBody: "{not json", headers: { "content-type": "application/json" } }), 401, "unauthorized");
    expect((await call("POST", "/api/v1/transactions", { auth: c.secretKey, rawBody: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
  });
});

describe("a cash-out's id, taken by the authenticating statement", () => {
  const company = () => new Request("http://localhost/api/v1/cashOut/request", { method: "POST" });
  const lastOf = async (seq: string) => Number(rowsOf<{ last: string }>(await getDb().execute(sql`select last_value::text as last from ${sql.identifier(seq)}`))[0].last);

  it("comes from the cash-outs' sequence, is the id of the cash-out created over HTTP, and a refused one leaves a gap", async () => {
    const c = await createTestAccount("Loja saque ids");
    await paidPix(c, 10_000);
    const transactionsBefore = await lastOf("transactions_id_seq");
    const first = await call("POST", "/api/v1/cashOut/request", { auth: c.secretKey, body: { amount: 100, pixKey: "maria@example.com" } });
    expect(first.status, first.text).toBe(201);
    expect(await lastOf("cash_outs_id_seq")).toBe(first.body.data.id);
    const taken = await authenticateSecretKey(company(), c.secretKey, { reserveId: "cash_outs" });
    expect(taken.reservedId).toBe(first.body.data.id + 1);
    const second = await call("POST", "/api/v1/cashOut/request", { auth: c.secretKey, body: { amount: 100, pixKey: "maria@example.com" } });
    expect(second.body.data.id).toBe(first.body.data.id + 2);
    // A cash-out the body then refuses (or the balance does) leaves its id unused.
    expect((await call("POST", "/api/v1/cashOut/request", { auth: c.secretKey, body: { amount: -1, pixKey: "maria@example.com" } })).status).toBe(400);
    expect((await call("POST", "/api/v1/cashOut/request", { auth: c.secretKey, body: { amount: 10_000_000, pixKey: "maria@example.com" } })).status).toBe(422);
    const third = await call("POST", "/api/v1/cashOut/request", { auth: c.secretKey, body: { amount: 100, pixKey: "maria@example.com" } });
    expect(third.body.data.id).toBe(second.body.data.id + 3);
    // No transaction id was taken for them.
    expect(await lastOf("transactions_id_seq")).toBe(transactionsBefore);
  });
});

describe("GET /api/v1/company", () => {
  it("returns the authenticated account and never its secrets", async () => {
    const res = await call("GET", "/api/v1/company", { auth: a.secretKey });
    expect(res.body.data).toMatchObject({ id: a.companyId, publicKey: a.publicKey });
    expect(res.body.data.name).toMatch(/^Loja A/);
    expect(new Date(res.body.data.createdAt).toString()).not.toBe("Invalid Date");
    expect(res.text).not.toContain(a.secretKey);
    expect(res.text).not.toContain(a.webhookSecret);
  });
});

describe("unknown routes under /api/v1", () => {
  it.each(["GET", "POST", "DELETE"])("%s is a 404 in the error body", async (method) => {
    const res = await call(method, "/api/v1/does-not-exist/at/all", { auth: a.secretKey });
    expectErrorBody(res, 404, "not_found");
  });
});

describe("GET /api/v1/health", () => {
  it("needs no key and names the database", async () => {
    const res = await call("GET", "/api/v1/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: process.env.DATABASE_URL ? "postgres" : "pglite" });
  });
});
