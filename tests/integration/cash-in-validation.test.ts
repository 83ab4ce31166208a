import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, cardBody, tokenize } from "../helpers/cash-in";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Validacao");
});

const create = (body: unknown) => call("POST", "/api/v1/transactions", { auth: a.secretKey, body });

/** Deletes or replaces the value at a dotted path ("customer.document.number", "items.0.title"). */
function withPath(body: Record<string, any>, path: string, value: unknown): Record<string, any> {
  const copy = structuredClone(body);
  const keys = path.split(".");
  let target: any = copy;
  for (const k of keys.slice(0, -1)) target = target[k];
  const last = keys[keys.length - 1];
  if (value === DELETE) delete target[last];
  else target[last] = value;
  return copy;
}
const DELETE = Symbol("delete");

function expectFieldError(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ success: false, status: 400, code: "validation_error" });
  expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  const error = res.body.errors.find((e: { field: string }) => e.field === field);
  expect(error.message.length).toBeGreaterThan(3);
}

describe("POST /api/v1/transactions: every required field", () => {
  it.each([
    "paymentMethod",
    "amount",
    "customer",
    "customer.name",
    "customer.email",
    "customer.document",
    "customer.document.type",
    "customer.document.number",
    "items",
    "items.0.title",
    "items.0.unitPrice",
    "items.0.quantity",
    "items.0.tangible",
  ])("missing %s is a 400 naming it", async (path) => {
    const res = await create(withPath(baseBody(), path, DELETE));
    expectFieldError(res, path);
    expect(res.body.errors.find((e: any) => e.field === path).message).toMatch(/required/);
  });

  it("credit_card requires ip and card.hash (both reported at once)", async () => {
    const res = await create(baseBody({ paymentMethod: "credit_card" }));
    expectFieldError(res, "ip");
    expectFieldError(res, "card.hash");
  });

  it("credit_card with a card object but no hash names card.hash", async () => {
    const res = await create(baseBody({ paymentMethod: "credit_card", ip: "203.0.113.7", card: {} }));
    expectFieldError(res, "card.hash");
  });

  it("reports every bad field in one response, the rules between fields included", async () => {
    const res = await create(
      baseBody({
        paymentMethod: "credit_card",
        amount: 50,
        items: [{ title: "x", unitPrice: 50, quantity: 1, tangible: false }],
        customer: { name: "", email: "nope", document: { type: "cpf", number: "123" } },
      }),
    );
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: any) => e.field).sort();
    expect(fields).toEqual(["amount", "card.hash", "customer.document.number", "customer.email", "customer.name", "ip"]);
    expect(res.body.message).toBe("The transaction is invalid: 6 fields have problems.");
  });
});

describe("POST /api/v1/transactions: every bad value", () => {
  const items1 = (unitPrice: number) => [{ title: "x", unitPrice, quantity: 1, tangible: false }];
  const rows: [string, Record<string, any>, string][] = [
    ["unknown paymentMethod", baseBody({ paymentMethod: "cash" }), "paymentMethod"],
    ["paymentMethod not a string", baseBody({ paymentMethod: 5 }), "paymentMethod"],
    ["fractional amount", baseBody({ amount: 1500.5 }), "amount"],
    ["amount as a string", baseBody({ amount: "1500" }), "amount"],
    ["zero amount", baseBody({ amount: 0, items: items1(0) }), "amount"],
    ["negative amount", baseBody({ amount: -5 }), "amount"],
    ["amount over R$ 1.000.000,00", baseBody({ amount: 100_000_001, items: items1(100_000_001) }), "amount"],
    ["boleto under R$ 1,00", baseBody({ paymentMethod: "boleto", amount: 99, items: items1(99) }), "amount"],
    ["card under R$ 1,00", baseBody({ paymentMethod: "credit_card", amount: 99, items: items1(99), ip: "1.2.3.4", card: { hash: "x" } }), "amount"],
    ["empty customer name", withPath(baseBody(), "customer.name", "  "), "customer.name"],
    ["bad e-mail", withPath(baseBody(), "customer.email", "maria.example.com"), "customer.email"],
    ["customer not an object", baseBody({ customer: "Maria" }), "customer"],
    ["document type rg", withPath(baseBody(), "customer.document.type", "rg"), "customer.document.type"],
    ["CPF with a wrong check digit", withPath(baseBody(), "customer.document.number", "111.444.777-34"), "customer.document.number"],
    ["CPF of repeated digits", withPath(baseBody(), "customer.document.number", "111.111.111-11"), "customer.document.number"],
    [
      "CNPJ with a wrong check digit",
      withPath(withPath(baseBody(), "customer.document.type", "cnpj"), "customer.document.number", "11.222.333/0001-82"),
      "customer.document.number",
    ],
    [
      "alphanumeric CNPJ with a wrong check digit",
      withPath(withPath(baseBody(), "customer.document.type", "cnpj"), "customer.document.number", "12ABC34501DE36"),
      "customer.document.number",
    ],
    ["a CNPJ sent as cpf", withPath(baseBody(), "customer.document.number", "11222333000181"), "customer.document.number"],
    ["phone with letters", withPath(baseBody(), "customer.phone", "11 9876-ABCD"), "customer.phone"],
    ["phone too short", withPath(baseBody(), "customer.phone", "1234"), "customer.phone"],
    ["no items", baseBody({ items: [] }), "items"],
    ["items not an array", baseBody({ items: "camiseta" }), "items"],
    ["item quantity 0", withPath(baseBody(), "items.0.quantity", 0), "items.0.quantity"],
    ["fractional quantity", withPath(baseBody(), "items.0.quantity", 1.5), "items.0.quantity"],
    ["negative unit price", withPath(baseBody(), "items.0.unitPrice", -1), "items.0.unitPrice"],
    ["fractional unit price", withPath(baseBody(), "items.0.unitPrice", 5.5), "items.0.unitPrice"],
    ["tangible not a boolean", withPath(baseBody(), "items.1.tangible", "yes"), "items.1.tangible"],
    ["empty item title", withPath(baseBody(), "items.0.title", ""), "items.0.title"],
    ["fractional shipping fee", baseBody({ shipping: { fee: 1.5 } }), "shipping.fee"],
    ["shipping not an object", baseBody({ shipping: "sedex" }), "shipping"],
    ["postbackUrl with ftp://", baseBody({ postbackUrl: "ftp://example.com/hook" }), "postbackUrl"],
    ["postbackUrl not a URL", baseBody({ postbackUrl: "example.com/hook" }), "postbackUrl"],
    ["metadata a number", baseBody({ metadata: 42 }), "metadata"],
    ["externalRef of 201 characters", baseBody({ externalRef: "x".repeat(201) }), "externalRef"],
    ["ip not an address", baseBody({ paymentMethod: "credit_card", ip: "999.1.1.1", card: { hash: "x" } }), "ip"],
    ["ip a host name", baseBody({ paymentMethod: "credit_card", ip: "localhost", card: { hash: "x" } }), "ip"],
    ["13 installments", baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: "x" }, installments: 13 }), "installments"],
    ["0 installments", baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: "x" }, installments: "0" }), "installments"],
    ["installments not a number", baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: "x" }, installments: "two" }), "installments"],
    ["installments for pix", baseBody({ installments: 2 }), "installments"],
    ["installments for boleto", baseBody({ paymentMethod: "boleto", installments: "3" }), "installments"],
    ["pix.expiresInDays 0", baseBody({ pix: { expiresInDays: 0 } }), "pix.expiresInDays"],
    ["pix.expiresInDays 31", baseBody({ pix: { expiresInDays: 31 } }), "pix.expiresInDays"],
    ["pix.expiresInDays 1.5", baseBody({ pix: { expiresInDays: 1.5 } }), "pix.expiresInDays"],
    ["boleto.expiresInDays 0", baseBody({ paymentMethod: "boleto", boleto: { expiresInDays: 0 } }), "boleto.expiresInDays"],
    ["boleto.expiresInDays 91", baseBody({ paymentMethod: "boleto", boleto: { expiresInDays: 91 } }), "boleto.expiresInDays"],
    ["empty card.hash", baseBody({ paymentMethod: "credit_card", ip: "1.2.3.4", card: { hash: "" } }), "card.hash"],
    ["traceable not a boolean", baseBody({ traceable: "yes" }), "traceable"],
  ];
  it.each(rows)("%s is a 400 on its field", async (_name, body, field) => {
    expectFieldError(await create(body), field);
  });

  it("a body that is not an object is a 400", async () => {
    expectFieldError(await create([baseBody()]), "body");
  });

  it("malformed JSON is a 400 validation_error, not a 500", async () => {
    const res = await call("POST", "/api/v1/transactions", {
      auth: a.secretKey,
      rawBody: '{"paymentMethod": "pix", "amount": 15',
      headers: { "content-type": "application/json" },
    });
    expectFieldError(res, "body");
  });

  it("no transaction is written by a rejected request", async () => {
    const res = await create(baseBody({ amount: 1, customer: { ...baseBody().customer, email: "never@example.com" } }));
    expect(res.status).toBe(400);
    const after = await call("GET", "/api/v1/transactions?email=never@example.com", { auth: a.secretKey });
    expect(after.body.data.pagination.total).toBe(0);
  });
});

describe("amount against the items and shipping", () => {
  it("must equal the items' total; the 400 names both figures", async () => {
    const res = await create(baseBody({ amount: 1600 }));
    expectFieldError(res, "amount");
    expect(res.body.message).toContain("1600");
    expect(res.body.message).toContain("1500");
  });

  it("may be the items' total plus shipping.fee", async () => {
    const res = await create(baseBody({ amount: 2100, shipping: { fee: 600, address: { city: "São Paulo", zipCode: "01310-100" } } }));
    expect(res.status).toBe(201);
    expect(res.body.data.shipping).toEqual({
      fee: 600,
      address: {
        street: null,
        streetNumber: null,
        complement: null,
        zipCode: "01310100",
        neighborhood: null,
        city: "São Paulo",
        state: null,
        country: null,
      },
      deliveryStatus: "waiting",
      trackingCode: null,
    });
  });

  it("may be the items' total alone even when a shipping fee is given", async () => {
    const res = await create(baseBody({ amount: 1500, shipping: { fee: 600 } }));
    expect(res.status).toBe(201);
  });

  it("anything else with shipping is a 400 naming the items' total, the fee and the sum", async () => {
    const res = await create(baseBody({ amount: 2000, shipping: { fee: 600 } }));
    expectFieldError(res, "amount");
    for (const figure of ["2000", "1500", "600", "2100"]) expect(res.body.errors[0].message).toContain(figure);
  });

  it.each([
    ["pix", 1],
    ["boleto", 100],
    ["pix", 100_000_000],
  ])("%s accepts %i centavos", async (method, amount) => {
    const res = await create(baseBody({ paymentMethod: method, amount, items: [{ title: "x", unitPrice: amount, quantity: 1, tangible: false }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.amount).toBe(amount);
  });

  it("credit_card accepts R$ 1,00", async () => {
    const body = await cardBody(a.publicKey, undefined, { amount: 100, items: [{ title: "x", unitPrice: 100, quantity: 1, tangible: false }] });
    const res = await create(body);
    expect(res.status).toBe(201);
  });
});

describe("lenient forms real clients send", () => {
  it.each(["PIX", "Pix", " pix "])("paymentMethod %j", async (pm) => {
    const res = await create(baseBody({ paymentMethod: pm }));
    expect(res.status).toBe(201);
    expect(res.body.data.paymentMethod).toBe("pix");
  });

  it.each(["BOLETO", "Boleto"])("paymentMethod %j", async (pm) => {
    const res = await create(baseBody({ paymentMethod: pm }));
    expect(res.status).toBe(201);
    expect(res.body.data.paymentMethod).toBe("boleto");
  });

  it("paymentMethod CREDIT_CARD", async () => {
    const res = await create(await cardBody(a.publicKey, undefined, { paymentMethod: "CREDIT_CARD" }));
    expect(res.status).toBe(201);
    expect(res.body.data.paymentMethod).toBe("credit_card");
  });

  it.each([
    ["CPF", "111.444.777-35", "cpf", "11144477735"],
    ["Cpf", 11144477735, "cpf", "11144477735"],
    ["CNPJ", "11.222.333/0001-81", "cnpj", "11222333000181"],
    ["cnpj", "12.abc.345/01de-35", "cnpj", "12ABC34501DE35"],
    ["CNPJ", "Q0SLFMBD7VX439", "cnpj", "Q0SLFMBD7VX439"],
  ])("document type %j number %j is stored as %s %s", async (type, number, storedType, storedNumber) => {
    const res = await create(withPath(baseBody(), "customer.document", { type, number }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.customer.document).toEqual({ type: storedType, number: storedNumber });
  });

  it.each([
    ["(11) 98765-4321", "11987654321"],
    ["+55 11 98765-4321", "5511987654321"],
    [11987654321, "11987654321"],
  ])("phone %j is stored as digits", async (phone, digits) => {
    const res = await create(withPath(baseBody(), "customer.phone", phone));
    expect(res.status).toBe(201);
    expect(res.body.data.customer.phone).toBe(digits);
  });

  it("phone may be absent or null", async () => {
    for (const phone of [DELETE, null]) {
      const res = await create(withPath(baseBody(), "customer.phone", phone));
      expect(res.status).toBe(201);
      expect(res.body.data.customer.phone).toBeNull();
    }
  });

  it.each([
    ["3", 3],
    [12, 12],
    [undefined, 1],
  ])("installments %j for a card reads %i", async (installments, expected) => {
    // R$ 60,00: 12 installments of R$ 5,00, the smallest installment offered.
    const body = await cardBody(a.publicKey, undefined, { installments, amount: 6000, items: [{ title: "x", unitPrice: 6000, quantity: 1, tangible: false }] });
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body.data.installments).toBe(expected);
  });

  it("installments 1 (number or string) is fine for pix", async () => {
    expect((await create(baseBody({ installments: "1" }))).status).toBe(201);
    expect((await create(baseBody({ installments: 1 }))).status).toBe(201);
  });

  it("metadata as an object is stored and returned as its JSON text", async () => {
    const res = await create(baseBody({ metadata: { orderId: 42, tags: ["a"] } }));
    expect(res.status).toBe(201);
    expect(res.body.data.metadata).toBe('{"orderId":42,"tags":["a"]}');
    const read = await call("GET", `/api/v1/transactions/${res.body.data.id}`, { auth: a.secretKey });
    expect(read.body.data.metadata).toBe('{"orderId":42,"tags":["a"]}');
  });

  it("metadata as an array is stored as its JSON text (docs/api.md); any other JSON value is a 400 naming the three forms", async () => {
    const res = await create(baseBody({ metadata: [1, "a"] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.metadata).toBe('[1,"a"]');
    for (const metadata of [42, true]) {
      const bad = await create(baseBody({ metadata }));
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: "metadata", message: "must be a string, an object or an array" }]);
    }
  });

  it("metadata as a string is echoed", async () => {
    const res = await create(baseBody({ metadata: "pedido 42" }));
    expect(res.body.data.metadata).toBe("pedido 42");
  });

  it("unknown fields are ignored (customer.address, items[].externalRef, splits)", async () => {
    const body = baseBody({ splits: [{ recipientId: 1, percentage: 10 }], somethingElse: true });
    body.customer.address = { street: "Rua A", zipCode: "01000-000" };
    body.items[0].externalRef = "sku-1";
    body.items[0].category = "roupas";
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).not.toHaveProperty("splits");
  });

  it("expiresInDays as a numeric string", async () => {
    const res = await create(baseBody({ pix: { expiresInDays: "5" } }));
    expect(res.status).toBe(201);
    const created = Date.parse(res.body.data.createdAt);
    expect(Date.parse(res.body.data.pix.expirationDate) - created).toBe(5 * 86_400_000);
  });

  it("an IPv6 payer address for a card", async () => {
    const res = await create(await cardBody(a.publicKey, undefined, { ip: "2001:db8::1" }));
    expect(res.status).toBe(201);
  });

  it("externalRef is returned as externalId; postbackUrl is echoed", async () => {
    const res = await create(baseBody({ externalRef: "pedido-77", postbackUrl: "https://example.com/hooks/arara" }));
    expect(res.status).toBe(201);
    expect(res.body.data.externalId).toBe("pedido-77");
    expect(res.body.data.postbackUrl).toBe("https://example.com/hooks/arara");
  });

  it("a card body can carry installments as the spec's string and the token from the wrapper form", async () => {
    const hash = await tokenize(a.publicKey, { card: { number: 5555555555554444, holderName: "J SILVA", expirationMonth: 1, expirationYear: 2031, cvv: 321 } });
    const res = await create(baseBody({ paymentMethod: "credit_card", ip: "10.0.0.1", installments: "2", card: { hash } }));
    expect(res.status).toBe(201);
    expect(res.body.data.card).toMatchObject({ brand: "mastercard", firstDigits: "555555", lastDigits: "4444", expirationMonth: "01", expirationYear: "2031" });
    expect(res.body.data.installments).toBe(2);
  });
});
