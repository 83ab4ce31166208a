import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkouts } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Links A");
  b = await createTestAccount("Loja Links B");
});

const create = (body: unknown, auth = a.secretKey, headers: Record<string, string> = {}) =>
  call("POST", "/api/v1/checkouts", { auth, body, headers });

describe("POST /api/v1/checkouts", () => {
  it("creates a link from an amount: one item named by the description, all methods, open", async () => {
    const res = await create({ amount: 4990, description: "Aula de violão", externalRef: "aula-1" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, status: 201, message: "Payment link created." });
    const c = res.body.data;
    expect(c).toMatchObject({
      status: "open",
      amount: 4990,
      description: "Aula de violão",
      items: [{ title: "Aula de violão", unitPrice: 4990, quantity: 1, tangible: false }],
      methods: ["pix", "boleto", "credit_card"],
      externalRef: "aula-1",
      expiresAt: null,
      transactionId: null,
    });
    expect(typeof c.id).toBe("number");
    expect(c.secureId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(c.secureUrl).toBe(`http://localhost:3000/checkout/${c.secureId}`);
  });

  it("takes items, sums them, and keeps the methods in a fixed order, lowercased", async () => {
    const res = await create({
      items: [
        { title: "Camiseta", unitPrice: 5000, quantity: 2, tangible: true },
        { title: "Adesivo", unitPrice: 350 },
      ],
      methods: ["CREDIT_CARD", "Pix"],
      expiresInDays: 3,
      metadata: { pedido: 7 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      amount: 10_350,
      methods: ["pix", "credit_card"],
      metadata: '{"pedido":7}',
      items: [
        { title: "Camiseta", unitPrice: 5000, quantity: 2, tangible: true },
        { title: "Adesivo", unitPrice: 350, quantity: 1, tangible: false },
      ],
    });
    const days = (Date.parse(res.body.data.expiresAt) - Date.parse(res.body.data.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(3, 3);
  });

  it("replays the first response for the same Idempotency-Key", async () => {
    const body = { amount: 1234 };
    const first = await create(body, a.secretKey, { "Idempotency-Key": "link-1" });
    const again = await create(body, a.secretKey, { "Idempotency-Key": "link-1" });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  const future = new Date(Date.now() + 86_400_000).toISOString();
  const invalid: [string, unknown, string][] = [
    ["neither amount nor items", { description: "x" }, "amount"],
    ["amount as a string", { amount: "10.00" }, "amount"],
    ["amount with centavos fraction", { amount: 10.5 }, "amount"],
    ["amount zero", { amount: 0 }, "amount"],
    ["amount above R$ 1.000.000,00", { amount: 100_000_001 }, "amount"],
    ["amount different from the items", { amount: 100, items: [{ title: "A", unitPrice: 200 }] }, "amount"],
    ["below R$ 1,00 with card or boleto", { amount: 50 }, "amount"],
    ["an empty item list", { items: [] }, "items"],
    ["an item without title", { items: [{ unitPrice: 100 }] }, "items.0.title"],
    ["an item with quantity 0", { items: [{ title: "A", unitPrice: 100, quantity: 0 }] }, "items.0.quantity"],
    ["an unknown method", { amount: 1000, methods: ["bitcoin"] }, "methods.0"],
    ["an empty method list", { amount: 1000, methods: [] }, "methods"],
    ["expiresInDays 0", { amount: 1000, expiresInDays: 0 }, "expiresInDays"],
    ["expiresInDays 366", { amount: 1000, expiresInDays: 366 }, "expiresInDays"],
    ["expiresAt not a date", { amount: 1000, expiresAt: "amanhã" }, "expiresAt"],
    ["expiresAt in the past", { amount: 1000, expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt"],
    ["both expiresAt and expiresInDays", { amount: 1000, expiresAt: future, expiresInDays: 2 }, "expiresAt"],
    ["a postbackUrl that is not http(s)", { amount: 1000, postbackUrl: "ftp://example.com/hook" }, "postbackUrl"],
    ["a description over 500 characters", { amount: 1000, description: "x".repeat(501) }, "description"],
  ];
  it.each(invalid)("refuses %s with a 400 naming %s", async (_name, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400, code: "validation_error" });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  // Every field of a wrong type is named in words, never with the validator's own text ("Invalid input:
  // expected string, received number").
  const wrongTypes: [unknown, string, string][] = [
    [{ items: [{ title: 5, unitPrice: 100 }] }, "items.0.title", "must be a string"],
    [{ items: [{ title: "A", unitPrice: 100, quantity: "2" }] }, "items.0.quantity", "must be a whole number"],
    [{ items: [{ title: "A", unitPrice: 100, tangible: "sim" }] }, "items.0.tangible", "must be true or false"],
    [{ items: "A" }, "items", "must be a list of items"],
    [{ amount: 1000, methods: "pix" }, "methods", "must be a list of methods"],
    [{ amount: 1000, methods: [7] }, "methods.0", "must be one of: pix, boleto, credit_card"],
    [{ amount: 1000, description: 7 }, "description", "must be a string"],
    [{ amount: 1000, externalRef: 7 }, "externalRef", "must be a string"],
    [{ amount: 1000, expiresInDays: "2" }, "expiresInDays", "must be a whole number of days"],
  ];
  it.each(wrongTypes)("names a field of the wrong type in words: %j", async (body, field, words) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message: words });
    expect(res.body.message).not.toMatch(/Invalid input|expected|received/);
  });

  it("accepts a small amount when only PIX is offered", async () => {
    const res = await create({ amount: 50, methods: ["pix"] });
    expect(res.status).toBe(201);
  });

  it("is a 400 for malformed JSON and a 401 without a key", async () => {
    const bad = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    const anon = await call("POST", "/api/v1/checkouts", { body: { amount: 1000 } });
    expect(anon.status).toBe(401);
  });
});

describe("GET /api/v1/checkouts/{id}", () => {
  it("reads the account's own link", async () => {
    const created = (await create({ amount: 2500 })).body.data;
    const res = await call("GET", `/api/v1/checkouts/${created.id}`, { auth: a.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created);
  });

  it("another account's link is a 404, like a missing or malformed id", async () => {
    const created = (await create({ amount: 2500 })).body.data;
    const other = await call("GET", `/api/v1/checkouts/${created.id}`, { auth: b.secretKey });
    const missing = await call("GET", `/api/v1/checkouts/999999999`, { auth: b.secretKey });
    const malformed = await call("GET", `/api/v1/checkouts/abc`, { auth: b.secretKey });
    for (const res of [other, missing, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, status: 404, code: "not_found" });
    }
    expect(other.body.message).toBe(missing.body.message);
  });

  it("reads paid once a transaction made from it is paid, naming that transaction", async () => {
    const link = (await create({ amount: 3000 })).body.data;
    await insertTransaction(a.companyId, { checkoutId: link.id, amount: 3000, status: "pending" });
    expect((await call("GET", `/api/v1/checkouts/${link.id}`, { auth: a.secretKey })).body.data.status).toBe("open");
    const paid = await insertTransaction(a.companyId, {
      checkoutId: link.id,
      amount: 3000,
      status: "paid",
      paidAmount: 3000,
      paidAt: new Date(),
    });
    const res = await call("GET", `/api/v1/checkouts/${link.id}`, { auth: a.secretKey });
    expect(res.body.data).toMatchObject({ status: "paid", transactionId: paid.id });
  });

  it("reads expired after expiresAt, unless it was paid", async () => {
    const link = (await create({ amount: 3000, expiresInDays: 1 })).body.data;
    await getDb().update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.id, link.id));
    expect((await call("GET", `/api/v1/checkouts/${link.id}`, { auth: a.secretKey })).body.data.status).toBe("expired");
    await insertTransaction(a.companyId, { checkoutId: link.id, status: "paid", paidAmount: 3000, paidAt: new Date(Date.now() - 5000) });
    expect((await call("GET", `/api/v1/checkouts/${link.id}`, { auth: a.secretKey })).body.data.status).toBe("paid");
  });
});

describe("GET /api/v1/checkouts", () => {
  it("lists only the account's links, newest first, with pagination and a status filter", async () => {
    const c = await createTestAccount("Loja Lista");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ amount: 1000 + i, externalRef: `l-${i}` }, c.secretKey)).body.data.id);
    await insertTransaction(c.companyId, { checkoutId: ids[1], status: "paid", paidAmount: 1001, paidAt: new Date() });

    const res = await call("GET", "/api/v1/checkouts?limit=2", { auth: c.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.data.data.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[1]]);
    expect(res.body.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });

    const paid = await call("GET", "/api/v1/checkouts?status=paid", { auth: c.secretKey });
    expect(paid.body.data.data.map((x: { id: number }) => x.id)).toEqual([ids[1]]);
    const open = await call("GET", "/api/v1/checkouts?status=open,expired", { auth: c.secretKey });
    expect(open.body.data.data.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[0]]);
    const byRef = await call("GET", "/api/v1/checkouts?externalRef=l-0", { auth: c.secretKey });
    expect(byRef.body.data.data.map((x: { id: number }) => x.id)).toEqual([ids[0]]);

    const bad = await call("GET", "/api/v1/checkouts?status=closed", { auth: c.secretKey });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("status");
  });
});
