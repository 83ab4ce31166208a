/**
 * The /v1 dialect, driven as the family's store clients drive it: base URL https://<host>/v1, Basic
 * auth with the secret key, the transaction read at the top level of the answer. Each test names
 * the family client behaviour it accepts (docs/switching.md lists them). The /api/v1 suites are
 * untouched and keep the contract's envelope; the last block checks the two side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { basic, call } from "../helpers/app";
import { createTestAccount, randomCpf } from "../helpers/accounts";
import { APPROVED_CARD, REFUSED_CARD } from "../helpers/flows";
import { routeOperations } from "../helpers/routes";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { responseSchema, validateAgainst } from "../helpers/json-schema";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { startDispatcher } from "@/lib/webhooks/dispatcher";

let acct: CreatedAccount;
let r: Receiver;

beforeAll(async () => {
  acct = await createTestAccount("Loja Família");
  r = await startReceiver(() => ({ status: 200 }));
});

afterAll(async () => {
  await r.close();
});

/** Authorization as the family's clients build it: base64("sk_...:x"). */
const familyAuth = () => basic(`${acct.secretKey}:x`);

/** A PIX sale as the family's clients send it (no tangible, document type in capitals). */
function familyPix(over: Record<string, unknown> = {}) {
  return {
    amount: 1990,
    paymentMethod: "PIX",
    customer: { name: "Jorge Santos", email: "jorge@example.com", phone: "11983272733", document: { number: randomCpf(), type: "CPF" } },
    items: [{ title: "Curso online", unitPrice: 1990, quantity: 1, externalRef: "CURSO01" }],
    pix: { expiresInDays: 1 },
    ...over,
  };
}

async function familyToken(card: Record<string, unknown> = APPROVED_CARD): Promise<string> {
  const { expirationMonth, expirationYear, ...rest } = card;
  const res = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body: { ...rest, expMonth: Number(expirationMonth), expYear: Number(expirationYear) } });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

function familyCard(hash: string, over: Record<string, unknown> = {}) {
  return {
    amount: 5000,
    paymentMethod: "credit_card",
    installments: 1,
    card: { hash },
    customer: { name: "Maria Silva", email: "maria@example.com", document: { number: randomCpf(), type: "cpf" } },
    items: [{ title: "Assinatura", unitPrice: 5000, quantity: 1, tangible: false }],
    ...over,
  };
}

async function runDispatcher(until: () => boolean) {
  const d = startDispatcher({ scheduleMs: [0], pollMs: 20, timeoutMs: 2000 });
  try {
    await r.waitFor(until, 10_000, "the postback");
  } finally {
    await d.stop();
  }
}

describe("/v1: the family's clients, unchanged", () => {
  it("creates a PIX sale and reads id, status and pix.qrcode at the top level (family: tx.id, tx.status, tx.pix.qrcode)", async () => {
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix() });
    expect(res.status, res.text).toBe(201);
    const tx = res.body;
    expect(tx.success).toBeUndefined();
    expect(tx.data).toBeUndefined();
    expect(typeof tx.id).toBe("number");
    expect(tx.status).toBe("pending");
    expect(tx.status.toLowerCase()).toBe("pending");
    expect(tx.amount).toBe(1990);
    expect(tx.paymentMethod).toBe("pix");
    expect(tx.pix.qrcode).toMatch(/^000201/);
    expect(tx.secureUrl).toContain(tx.secureId);
    expect(tx.fees).toEqual(expect.any(Number));
    // The same transaction in the contract's dialect: the envelope, same fields inside.
    const api = await call("GET", `/api/v1/transactions/${tx.id}`, { auth: acct.secretKey });
    expect(api.body).toMatchObject({ success: true, status: 200, data: { id: tx.id, status: "pending" } });
  });

  it("polls GET /v1/transactions/{id} and sees the string \"paid\" once the PIX is paid (family: polling on tx.status)", async () => {
    const created = (await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix() })).body;
    const before = await call("GET", `/v1/transactions/${created.id}`, { auth: familyAuth() });
    expect(before.status).toBe(200);
    expect(before.body.status).toBe("pending");
    const moved = await call("PUT", `/v1/transactions/${created.id}/test`, { auth: familyAuth(), body: { status: "paid" } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.status).toBe("paid");
    const after = await call("GET", `/v1/transactions/${created.id}`, { auth: familyAuth() });
    expect(after.body).toMatchObject({ id: created.id, status: "paid", paidAmount: 1990 });
    expect(after.body.pix.end2end).toEqual(expect.any(String));
  });

  it("a refused card is recognisable from the top-level status string (family: status.toLowerCase() === \"refused\")", async () => {
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(REFUSED_CARD)) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.status.toLowerCase()).toBe("refused");
    expect(res.body.status).not.toBe("paid");
    // The family's object (tests/integration/v1-family-shapes.test.ts has its fields); /api/v1 keeps the code string.
    expect(res.body.refusedReason).toMatchObject({ code: expect.any(String), description: expect.any(String) });
    expect(res.body.card.lastDigits).toBe("0002");
  });

  it("an approved card reads status \"paid\" at the top level with the card and installments", async () => {
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(), { installments: "2" }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: "paid", installments: 2, card: { lastDigits: "1111", brand: "visa" } });
  });

  it("sends the card postback in the family's shape { id, type, objectId, url, data } with data.status \"paid\", signed as today", async () => {
    const url = `${r.url}/family-card`;
    const created = (
      await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(), { postbackUrl: url, ip: "203.0.113.9" }) })
    ).body;
    const seen = () => r.hits.filter((h) => h.json?.objectId === String(created.id));
    await runDispatcher(() => seen().length >= 1);
    const [hit] = seen();
    expect(Object.keys(hit.json).sort()).toEqual(["data", "id", "objectId", "type", "url"]);
    expect(hit.json).toMatchObject({ type: "transaction", objectId: String(created.id), url, data: { id: created.id, status: "paid" } });
    expect(hit.eventId).toBe(String(hit.json.id));
    // data is the full transaction as /v1 returns it at creation.
    for (const key of ["amount", "paymentMethod", "secureUrl", "customer", "card", "fees", "installments", "createdAt"]) {
      expect(hit.json.data, key).toHaveProperty(key);
    }
    expect(new Webhook(acct.webhookSecret).verify(hit.body, hit.headers)).toEqual(hit.json);
    // The delivery log shows the same body.
    const log = await call("GET", `/v1/transactions/${created.id}/webhooks`, { auth: familyAuth() });
    expect(log.body[0].body).toEqual(hit.json);
  });

  it("a PIX paid later is notified with data.status \"paid\" in the family's shape", async () => {
    const url = `${r.url}/family-pix`;
    const created = (await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ postbackUrl: url }) })).body;
    await call("PUT", `/v1/transactions/${created.id}/test`, { auth: familyAuth(), body: { status: "paid" } });
    const seen = () => r.hits.filter((h) => h.json?.objectId === String(created.id));
    await runDispatcher(() => seen().length >= 2);
    expect(seen().map((h) => h.json.data.status)).toEqual(["pending", "paid"]);
  });
});

describe("/v1: the family's leniencies", () => {
  it("ip is optional for cards: the caller's address is recorded (family: no ip sent)", async () => {
    const res = await call("POST", "/v1/transactions", {
      auth: familyAuth(),
      body: familyCard(await familyToken()),
      headers: { "x-forwarded-for": "198.51.100.23, 10.0.0.1" },
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await getDb().select({ ip: transactions.ip, dialect: transactions.dialect }).from(transactions).where(eq(transactions.id, res.body.id));
    expect(row).toEqual({ ip: "198.51.100.23", dialect: "v1" });
    // With no address known at all, 0.0.0.0 (unspecified) is recorded rather than refusing the sale.
    const bare = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken()) });
    expect(bare.status, bare.text).toBe(201);
    const [row2] = await getDb().select({ ip: transactions.ip }).from(transactions).where(eq(transactions.id, bare.body.id));
    expect(row2.ip).toBe("0.0.0.0");
    // /api/v1 keeps the contract: ip is required for credit_card.
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyCard(await familyToken()) });
    expect(api.status).toBe(400);
    expect(api.body.errors).toContainEqual(expect.objectContaining({ field: "ip" }));
  });

  it("items[].tangible is optional and defaults to false (family: items without tangible)", async () => {
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix() });
    expect(res.status, res.text).toBe(201);
    const [row] = await getDb().select({ items: transactions.items }).from(transactions).where(eq(transactions.id, res.body.id));
    expect(row.items[0].tangible).toBe(false);
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyPix() });
    expect(api.status).toBe(400);
    expect(api.body.errors).toContainEqual(expect.objectContaining({ field: "items.0.tangible" }));
  });

  it("pix.expiresInSeconds is accepted beside expiresInDays, rounded up to whole days (family: expiresInSeconds)", async () => {
    // pix.expiresAt is the full time under /v1 (pix.expirationDate is the day, the family's date).
    const days = (tx: any) => Math.round((Date.parse(tx.pix.expiresAt) - Date.parse(tx.createdAt)) / 3_600_000) / 24;
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInSeconds: 3600 } }) });
    expect(res.status, res.text).toBe(201);
    const oneDay = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInDays: 1 } }) });
    expect(days(res.body)).toBe(days(oneDay.body));
    const threeDays = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInSeconds: "172801" } }) });
    const three = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInDays: 3 } }) });
    expect(days(threeDays.body)).toBe(days(three.body));
    expect(days(three.body)).toBeGreaterThan(days(oneDay.body));

    const bad = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInSeconds: -5 } }) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "validation_error", errors: [{ field: "pix.expiresInSeconds" }] });
    // Credentials are checked before the body: without them, a 401 whatever the body says.
    const anon = await call("POST", "/v1/transactions", { body: familyPix({ pix: { expiresInSeconds: -5 } }) });
    expect(anon.status).toBe(401);
  });

  it("amounts, unit prices and quantities as numeric strings, and customer.document as the bare number (family: form values)", async () => {
    const doc = randomCpf();
    const res = await call("POST", "/v1/transactions", {
      auth: familyAuth(),
      body: familyPix({
        amount: "2000",
        items: [{ title: "Kit", unitPrice: "1000", quantity: "2" }],
        customer: { name: "Ana Lima", email: "ana@example.com", document: doc },
      }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ amount: 2000, customer: { document: { type: "cpf", number: doc } } });
  });

  it("card-token takes expMonth/expYear and answers a JSON string when Accept prefers JSON (family: JSON clients of /card-token)", async () => {
    const { expirationMonth, expirationYear, ...card } = APPROVED_CARD;
    const body = { ...card, expMonth: expirationMonth, expYear: expirationYear };
    const asJson = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body, headers: { accept: "application/json, text/plain, */*" } });
    expect(asJson.status, asJson.text).toBe(200);
    expect(asJson.headers.get("content-type")).toContain("application/json");
    expect(asJson.body).toMatch(/^ct_/);
    expect(asJson.text).toBe(JSON.stringify(asJson.body));
    const asText = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body, headers: { accept: "*/*" } });
    expect(asText.headers.get("content-type")).toContain("text/plain");
    expect(asText.text).toMatch(/^ct_/);
    // Wrapped as { card: {...} } too; and the token charges like any other.
    const wrapped = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body: { card: body } });
    expect(wrapped.text).toMatch(/^ct_/);
    const sale = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(asJson.body, { ip: "203.0.113.1" }) });
    expect(sale.body.status).toBe("paid");
    // Errors keep the error body.
    const bad = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body: { ...body, expMonth: 13 }, headers: { accept: "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "validation_error" });
  });

  it("Authorization: Basic with the secret key not base64-encoded (family: published curl examples)", async () => {
    const raw = await call("GET", "/v1/balance", { auth: `Basic ${acct.secretKey}` });
    expect(raw.status, raw.text).toBe(200);
    expect(raw.body).toHaveProperty("available");
    const created = await call("POST", "/v1/transactions", { auth: `Basic ${acct.secretKey}:x`, body: familyPix() });
    expect(created.status, created.text).toBe(201);
    const wrong = await call("GET", "/v1/balance", { auth: "Basic sk_test_notakey" });
    expect(wrong.status).toBe(401);
  });

  it("GET /v1/status answers { status: \"online\" } without credentials (family: health probe)", async () => {
    const res = await call("GET", "/v1/status");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "online" });
  });

  it("GET /v1/balance/available is the balance, bare (family: balance/available)", async () => {
    const a = await call("GET", "/v1/balance/available", { auth: familyAuth() });
    const b = await call("GET", "/v1/balance", { auth: familyAuth() });
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body).toHaveProperty("available");
    expect(a.body.success).toBeUndefined();
  });

  it("GET /v1/js serves the browser script (family: <script src=\".../v1/js\">)", async () => {
    const res = await call("GET", "/v1/js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    expect(res.text).toContain("JunglePagamentos");
  });
});

describe("/v1: bare resources, same status codes, same error body", () => {
  it("lists are { data, pagination }", async () => {
    const res = await call("GET", "/v1/transactions?limit=2", { auth: familyAuth() });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "pagination"]);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toHaveProperty("status");
  });

  it("company, balance, cash-out and checkout are bare", async () => {
    const company = await call("GET", "/v1/company", { auth: familyAuth() });
    expect(company.status).toBe(200);
    expect(company.body.success).toBeUndefined();
    expect(company.body.id).toBe(acct.companyId);

    const checkout = await call("POST", "/v1/checkouts", { auth: familyAuth(), body: { amount: 5000, description: "Link" } });
    expect(checkout.status, checkout.text).toBe(201);
    expect(checkout.body.secureUrl).toEqual(expect.any(String));
    const again = await call("GET", `/v1/checkouts/${checkout.body.id}`, { auth: familyAuth() });
    expect(again.body.id).toBe(checkout.body.id);

    const cashOut = await call("POST", "/v1/cashOut/request", { auth: familyAuth(), body: { amount: 100, pixKey: "maria@example.com" } });
    expect(cashOut.status, cashOut.text).toBe(201);
    expect(cashOut.body.id).toEqual(expect.any(Number));
    const one = await call("GET", `/v1/cashOut/${cashOut.body.id}`, { auth: familyAuth() });
    expect(one.body.id).toBe(cashOut.body.id);
    const list = await call("GET", "/v1/cashOut", { auth: familyAuth() });
    expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
  });

  it("errors keep the one error body and the contract's status codes", async () => {
    const unauth = await call("GET", "/v1/transactions");
    expect(unauth.status).toBe(401);
    expect(unauth.body).toMatchObject({ success: false, status: 401, code: "unauthorized" });
    const missing = await call("GET", "/v1/transactions/999999999", { auth: familyAuth() });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: "not_found" });
    const invalid = await call("POST", "/v1/transactions", { auth: familyAuth(), body: { paymentMethod: "pix" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ success: false, code: "validation_error" });
    const malformed = await call("POST", "/v1/transactions", { auth: familyAuth(), rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    const nowhere = await call("GET", "/v1/nothing-here", { auth: familyAuth() });
    expect(nowhere.status).toBe(404);
  });

  it("an Idempotency-Key replays the same bare answer", async () => {
    const headers = { "idempotency-key": `v1-${Date.now()}` };
    const body = familyPix();
    const first = await call("POST", "/v1/transactions", { auth: familyAuth(), body, headers });
    const second = await call("POST", "/v1/transactions", { auth: familyAuth(), body, headers });
    expect(first.status, first.text).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.status).toBe("pending");
  });

  it("every /api/v1 operation has its /v1 twin (the PSP's own notification routes excepted)", async () => {
    // /api/v1/psp/** is called by a merchant's PSP (API Pix), never by a family client: no twin.
    for (const op of (await routeOperations()).filter((o) => !o.path.startsWith("/api/v1/psp/"))) {
      const path = op.path.replace(/^\/api\/v1/, "/v1").replace(/\{\w+\}/g, "999999999");
      const res = await call(op.method, path, { auth: familyAuth(), body: op.method === "GET" ? undefined : {} });
      expect(`${op.method} ${path} ${res.status} ${typeof res.body === "object" ? res.body?.message : ""}`).not.toMatch(/No API route/);
    }
  });

  it("/api/v1 keeps the envelope and the contract's card postback kind (approved)", async () => {
    const token = await familyToken();
    const url = `${r.url}/api-card`;
    const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyCard(token, { ip: "203.0.113.4", postbackUrl: url, items: [{ title: "A", unitPrice: 5000, quantity: 1, tangible: false }] }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ success: true, status: 201, data: { status: "paid" } });
    const id = res.body.data.id;
    const seen = () => r.hits.filter((h) => h.json?.data?.id === id);
    await runDispatcher(() => seen().length >= 1);
    expect(seen()[0].json).not.toHaveProperty("objectId");
    expect(seen()[0].json.data.status).toBe("approved");
    const [row] = await getDb().select({ dialect: transactions.dialect }).from(transactions).where(eq(transactions.id, id));
    expect(row.dialect).toBe("api");
  });
});

describe("the browser script's family names", () => {
  /** Runs the script as a browser would, its fetch answered by the real route handlers. */
  async function loadScript(path: string) {
    const vm = await import("node:vm");
    const source = (await call("GET", path)).text;
    const window: Record<string, any> = {};
    const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
      const u = new URL(url);
      const res = await call(init.method, u.pathname + u.search, { rawBody: init.body, headers: init.headers });
      return { ok: res.status >= 200 && res.status < 300, status: res.status, text: async () => res.text };
    };
    vm.runInNewContext(source, { window, document: { currentScript: { src: `https://pay.arara.example${path}` } }, location: { href: "https://loja.example/", origin: "https://loja.example" }, fetch, URL, JSON, Promise, Error });
    return window;
  }

  it("Payout, JunglePagamentos and PaymentGateway: awaited setPublicKey, setTestMode, encrypt with expMonth/expYear (family: their stores' SDK calls)", async () => {
    const window = await loadScript("/v1/js");
    for (const name of ["Payout", "JunglePagamentos", "PaymentGateway", "Arara"]) {
      const sdk = window[name];
      expect(sdk, name).toBeDefined();
      await sdk.setPublicKey(acct.publicKey);
      expect(sdk.publicKey).toBe(acct.publicKey);
      expect(() => sdk.setTestMode(true)).not.toThrow();
      const token = await sdk.encrypt({ number: "4111111111111111", holderName: "MARIA SILVA", expMonth: 12, expYear: 2034, cvv: "123" });
      expect(token, name).toMatch(/^ct_/);
      const sale = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(token, { ip: "203.0.113.2" }) });
      expect(sale.body.status, name).toBe("paid");
    }
  });
});

describe("the reference", () => {
  it("the reference describes /v1: twins with bare bodies, the family-only paths, the /v1 notification and the switching guide", async () => {
    const res = await call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    for (const op of (await routeOperations()).filter((o) => !o.path.startsWith("/api/v1/psp/"))) {
      const v1 = op.path.replace(/^\/api\/v1/, "/v1");
      expect(doc.paths[v1]?.[op.method.toLowerCase()], `${op.method} ${v1}`).toBeDefined();
    }
    const created = doc.paths["/v1/transactions"].post.responses["201"].content["application/json"].schema;
    expect(created).toEqual({ $ref: "#/components/schemas/TransactionV1" });
    expect(doc.paths["/api/v1/transactions"].post.responses["201"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CreatedTransactionResponse",
    });
    expect(doc.components.schemas.ItemV1.required).not.toContain("tangible");
    expect(doc.paths["/v1/status"].get.security).toEqual([]);
    expect(doc.paths["/v1/balance/available"].get).toBeDefined();
    expect(doc.webhooks.transaction_v1.post.requestBody.content["application/json"].schema.required).toContain("objectId");
    const guide = doc["x-guides"].find((g: any) => g.id === "switching");
    expect(guide.title).toBe("Switching from another gateway of this API family");
    expect(guide.paragraphs.join(" ")).toMatch(/objectId/);
    expect(guide.paragraphs.join(" ")).toMatch(/JunglePagamentos/);
    expect(doc.info.description).toContain("Switching from another gateway of this API family");
  });
});

describe("the reference matches what /v1 answers", () => {
  it("every /v1 answer of a sale's life conforms to the documented /v1 schema", async () => {
    const doc = (await call("GET", "/v1/openapi.json")).body;
    const check = (method: string, path: string, res: { status: number; body: unknown }) =>
      expect(validateAgainst(doc, responseSchema(doc, method, path, res.status), res.body), `${method} ${path}`).toEqual([]);

    const pix = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix() });
    check("POST", "/v1/transactions", pix);
    const card = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(), { ip: "203.0.113.3" }) });
    check("POST", "/v1/transactions", card);
    const refused = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(REFUSED_CARD), { ip: "203.0.113.3" }) });
    check("POST", "/v1/transactions", refused);
    check("GET", "/v1/transactions/{id}", await call("GET", `/v1/transactions/${card.body.id}`, { auth: familyAuth() }));
    check("PUT", "/v1/transactions/{id}/test", await call("PUT", `/v1/transactions/${pix.body.id}/test`, { auth: familyAuth(), body: { status: "paid" } }));
    check("POST", "/v1/transactions/{id}/refund", await call("POST", `/v1/transactions/${card.body.id}/refund`, { auth: familyAuth(), body: {} }));
    check("GET", "/v1/transactions", await call("GET", "/v1/transactions?limit=5", { auth: familyAuth() }));
    check("GET", "/v1/balance", await call("GET", "/v1/balance", { auth: familyAuth() }));
    check("GET", "/v1/balance/available", await call("GET", "/v1/balance/available", { auth: familyAuth() }));
    check("GET", "/v1/company", await call("GET", "/v1/company", { auth: familyAuth() }));
    check("GET", "/v1/status", await call("GET", "/v1/status"));
    // A read shows the transaction as creation did: /v1 has one transaction shape.
    const read = await call("GET", `/v1/transactions/${refused.body.id}`, { auth: familyAuth() });
    expect(Object.keys(read.body).sort()).toEqual(Object.keys(refused.body).sort());
    expect(read.body.card.lastDigits).toBe("0002");
  });
});
