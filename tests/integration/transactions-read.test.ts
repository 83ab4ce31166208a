import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
let b: CreatedAccount;
const ids: number[] = [];

beforeAll(async () => {
  a = await createTestAccount("Loja A");
  b = await createTestAccount("Loja B");
  const base = Date.parse("2026-06-01T12:00:00Z");
  for (let i = 0; i < 25; i++) {
    const method = (["pix", "boleto", "credit_card"] as const)[i % 3];
    const row = await insertTransaction(a.companyId, {
      paymentMethod: method,
      status: i % 5 === 0 ? "paid" : method === "credit_card" ? "refused" : "pending",
      amount: 1000 + i,
      externalRef: `order-${i}`,
      createdAt: new Date(base + i * 86_400_000),
      customerEmail: i === 7 ? "Joao@Example.com" : "maria@example.com",
      customerDocument: i === 8 ? "11222333000181" : "11144477735",
    });
    ids.push(row.id);
  }
  await insertTransaction(b.companyId, { externalRef: "other-account" });
});

describe("GET /api/v1/transactions/{id}", () => {
  it("returns the spec's Transaction resource", async () => {
    const res = await call("GET", `/api/v1/transactions/${ids[0]}`, { auth: a.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.status).toBe(200);
    expect(res.body.message).toBeUndefined();
    const t = res.body.data;
    expect(t).toMatchObject({
      id: ids[0],
      companyId: a.companyId,
      paymentMethod: "pix",
      amount: 1000,
      externalId: "order-0",
      acquirerType: "sandbox",
      traceable: false,
      customer: { name: "Maria Silva", document: { type: "cpf", number: "11144477735" } },
    });
    expect(t.secureUrl).toBe(`http://localhost:3000/checkout/${t.secureId}`);
    expect(t.pix).toBeDefined();
    expect(t.createdAt).toBe("2026-06-01T12:00:00.000Z");
  });

  it("shows the fee as notifications do, on the read and the list (a client books the fee from what it reads)", async () => {
    const c = await createTestAccount("Loja C");
    const created = await call("POST", "/api/v1/transactions", {
      auth: c.secretKey,
      body: {
        paymentMethod: "pix",
        amount: 4590,
        customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
        items: [{ title: "Livro", unitPrice: 4590, quantity: 1, tangible: true }],
      },
    });
    expect(created.status, created.text).toBe(201);
    // 0,99% of R$ 45,90 = R$ 0,45 (0,4544…): the creation's fees, and fee { … } on the read.
    expect(created.body.data.fees).toBe(45);
    const read = await call("GET", `/api/v1/transactions/${created.body.data.id}`, { auth: c.secretKey });
    expect(read.body.data.fee).toEqual({ netAmount: 4545, fixedAmount: 0, estimatedFee: 45 });
    const list = await call("GET", "/api/v1/transactions?limit=5", { auth: c.secretKey });
    expect(list.body.data.data.find((t: { id: number }) => t.id === created.body.data.id).fee).toEqual(read.body.data.fee);
  });

  it("boleto transactions have no pix object and no boleto object on read", async () => {
    const res = await call("GET", `/api/v1/transactions/${ids[1]}`, { auth: a.secretKey });
    expect(res.body.data.paymentMethod).toBe("boleto");
    expect(res.body.data).not.toHaveProperty("pix");
    expect(res.body.data).not.toHaveProperty("boleto");
  });

  it("another account's transaction is a 404, like a missing one", async () => {
    const other = await call("GET", `/api/v1/transactions/${ids[0]}`, { auth: b.secretKey });
    const missing = await call("GET", `/api/v1/transactions/999999999`, { auth: b.secretKey });
    for (const res of [other, missing]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, status: 404, code: "not_found" });
    }
    expect(other.body.message).toBe(missing.body.message);
  });

  it("a non-numeric id is a 404", async () => {
    const res = await call("GET", `/api/v1/transactions/abc`, { auth: a.secretKey });
    expect(res.status).toBe(404);
  });
});

describe("GET /api/v1/transactions", () => {
  it("lists newest first with pagination", async () => {
    const res = await call("GET", "/api/v1/transactions?limit=10&page=1", { auth: a.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toEqual({ page: 1, limit: 10, total: 25, totalPages: 3 });
    expect(res.body.data.data).toHaveLength(10);
    expect(res.body.data.data[0].id).toBe(ids[24]);
    const page3 = await call("GET", "/api/v1/transactions?limit=10&page=3", { auth: a.secretKey });
    expect(page3.body.data.data.map((t: any) => t.id)).toEqual(ids.slice(0, 5).reverse());
  });

  it("never shows another account's transactions", async () => {
    const res = await call("GET", "/api/v1/transactions?limit=100", { auth: b.secretKey });
    expect(res.body.data.data).toHaveLength(1);
    expect(res.body.data.data[0].externalId).toBe("other-account");
  });

  it.each([
    ["status=paid", 5],
    ["status=paid,refused", 5 + 8 - 2],
    ["paymentMethod=pix", 9],
    ["paymentMethod=PIX,boleto", 17],
    ["externalRef=order-3", 1],
    ["email=joao@example.com", 1],
    ["documentNumber=11.222.333/0001-81", 1],
    ["from=2026-06-20&to=2026-06-22", 3],
    ["from=2026-06-20T12:00:00Z", 6],
  ])("filters %s", async (qs, expected) => {
    const res = await call("GET", `/api/v1/transactions?${qs}&limit=100`, { auth: a.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.total).toBe(expected);
    expect(res.body.data.data).toHaveLength(expected);
  });

  it.each(["limit=101", "limit=0", "page=0", "status=unknown", "paymentMethod=cash", "from=yesterday"])(
    "rejects %s with a 400 naming the parameter",
    async (qs) => {
      const res = await call("GET", `/api/v1/transactions?${qs}`, { auth: a.secretKey });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_error");
      expect(res.body.errors[0].field).toBe(qs.split("=")[0]);
    },
  );
});
