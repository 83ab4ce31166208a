/**
 * The /v1 dialect's field shapes, as the family's published clients read them (docs/switching.md
 * lists each behaviour with its test): metadata as sent, blank optional strings, the PIX and boleto
 * expirationDate as a day, refusedReason as an object, the card's expiry as integers. Each test also
 * checks that /api/v1 (the contract) answers as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { basic, call } from "../helpers/app";
import { createTestAccount, randomCpf } from "../helpers/accounts";
import { APPROVED_CARD, REFUSED_CARD } from "../helpers/flows";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { responseSchema, validateAgainst } from "../helpers/json-schema";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { startDispatcher } from "@/lib/webhooks/dispatcher";
import { brasiliaDay } from "@/lib/domain/time";

let acct: CreatedAccount;
let r: Receiver;

beforeAll(async () => {
  acct = await createTestAccount("Loja Formas da Família");
  r = await startReceiver(() => ({ status: 200 }));
});

afterAll(async () => {
  await r.close();
});

const familyAuth = () => basic(`${acct.secretKey}:x`);

function familyPix(over: Record<string, unknown> = {}) {
  return {
    amount: 1990,
    paymentMethod: "pix",
    customer: { name: "Jorge Santos", email: "jorge@example.com", phone: "11983272733", document: { number: randomCpf(), type: "cpf" } },
    items: [{ title: "Curso online", unitPrice: 1990, quantity: 1 }],
    ...over,
  };
}

async function familyToken(card: Record<string, unknown> = APPROVED_CARD): Promise<string> {
  const res = await call("POST", `/v1/card-token?publicKey=${acct.publicKey}`, { body: card });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

function familyCard(hash: string, over: Record<string, unknown> = {}) {
  return {
    amount: 5000,
    paymentMethod: "credit_card",
    installments: 1,
    card: { hash },
    ip: "203.0.113.7",
    customer: { name: "Maria Silva", email: "maria@example.com", document: { number: randomCpf(), type: "cpf" } },
    items: [{ title: "Assinatura", unitPrice: 5000, quantity: 1, tangible: false }],
    ...over,
  };
}

async function postbacksOf(id: number, count: number): Promise<any[]> {
  const seen = () => r.hits.filter((h) => h.json?.objectId === String(id) || h.json?.data?.id === id);
  const d = startDispatcher({ scheduleMs: [0], pollMs: 20, timeoutMs: 2000 });
  try {
    await r.waitFor(() => seen().length >= count, 10_000, "the postbacks");
  } finally {
    await d.stop();
  }
  return seen().map((h) => h.json);
}

async function listed(id: number, auth: string, prefix: "/v1" | "/api/v1"): Promise<any> {
  const res = await call("GET", `${prefix}/transactions?limit=100`, { auth });
  expect(res.status, res.text).toBe(200);
  const data = prefix === "/v1" ? res.body.data : res.body.data.data;
  return data.find((t: any) => t.id === id);
}

describe("/v1: metadata as it was sent", () => {
  it("metadata sent as an object is read back as that object on creation, read, list, move and postback (family: tx.metadata?.orderId)", async () => {
    const metadata = { orderId: "A1", usuario_id: 42, tags: ["curso", "promo"], nested: { utm: null } };
    const url = `${r.url}/metadata-object`;
    const created = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata, postbackUrl: url }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata).toEqual(metadata);
    expect(created.body.metadata.orderId).toBe("A1");
    const id = created.body.id;

    expect((await call("GET", `/v1/transactions/${id}`, { auth: familyAuth() })).body.metadata).toEqual(metadata);
    expect((await listed(id, familyAuth(), "/v1")).metadata).toEqual(metadata);
    const moved = await call("PUT", `/v1/transactions/${id}/test`, { auth: familyAuth(), body: { status: "paid" } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.metadata).toEqual(metadata);
    const hooks = await postbacksOf(id, 2);
    expect(hooks.map((h) => h.data.status)).toEqual(["pending", "paid"]);
    for (const h of hooks) expect(h.data.metadata).toEqual(metadata);

    // The contract returns metadata as a string: unchanged.
    const api = await call("GET", `/api/v1/transactions/${id}`, { auth: acct.secretKey });
    expect(api.body.data.metadata).toBe(JSON.stringify(metadata));
    expect((await listed(id, acct.secretKey, "/api/v1")).metadata).toBe(JSON.stringify(metadata));
  });

  it("metadata sent as a string is read back as that same string (family: JSON.parse(tx.metadata))", async () => {
    const text = JSON.stringify({ utm_source: "facebook", src: "ads" });
    const created = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata: text }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata).toBe(text);
    expect(JSON.parse(created.body.metadata).utm_source).toBe("facebook");
    expect((await call("GET", `/v1/transactions/${created.body.id}`, { auth: familyAuth() })).body.metadata).toBe(text);
    const plain = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata: "pedido 77" }) });
    expect(plain.body.metadata).toBe("pedido 77");
    const array = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata: [{ sku: "X" }] }) });
    expect(array.body.metadata).toEqual([{ sku: "X" }]);
    const none = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix() });
    expect(none.body.metadata).toBeNull();
  });

  it("metadata sent as an object to /api/v1 is a string there and the object under /v1 (the dialect that reads decides)", async () => {
    const metadata = { orderId: "B2" };
    const created = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyPix({ metadata, items: [{ title: "A", unitPrice: 1990, quantity: 1, tangible: false }] }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.metadata).toBe(JSON.stringify(metadata));
    expect((await call("GET", `/v1/transactions/${created.body.data.id}`, { auth: familyAuth() })).body.metadata).toEqual(metadata);
    const [row] = await getDb().select({ metadataIsJson: transactions.metadataIsJson }).from(transactions).where(eq(transactions.id, created.body.data.id));
    expect(row.metadataIsJson).toBe(true);
  });

  it("a payment link's metadata object is read back as the object on /v1, on the link and on the charge paid through it (family: metadata of a link)", async () => {
    const metadata = { orderId: "L9" };
    const link = await call("POST", "/v1/checkouts", { auth: familyAuth(), body: { amount: 3000, description: "Link", methods: ["pix"], metadata } });
    expect(link.status, link.text).toBe(201);
    expect(link.body.metadata).toEqual(metadata);
    expect((await call("GET", `/v1/checkouts/${link.body.id}`, { auth: familyAuth() })).body.metadata).toEqual(metadata);
    expect((await call("GET", "/v1/checkouts?limit=100", { auth: familyAuth() })).body.data.find((c: any) => c.id === link.body.id).metadata).toEqual(metadata);
    expect((await call("GET", `/api/v1/checkouts/${link.body.id}`, { auth: acct.secretKey })).body.data.metadata).toBe(JSON.stringify(metadata));
    const paid = await call("POST", `/checkout/${link.body.secureId}/pay`, {
      body: { method: "pix", payer: { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" } },
      headers: { "content-type": "application/json" },
    });
    expect(paid.status, paid.text).toBeLessThan(300);
    const [row] = await getDb().select({ id: transactions.id }).from(transactions).where(eq(transactions.secureId, paid.body.secureId ?? paid.body.data?.secureId));
    expect((await call("GET", `/v1/transactions/${row.id}`, { auth: familyAuth() })).body.metadata).toEqual(metadata);
    expect((await call("GET", `/api/v1/transactions/${row.id}`, { auth: acct.secretKey })).body.data.metadata).toBe(JSON.stringify(metadata));
  });
});

describe("/v1: blank optional strings", () => {
  it("customer.phone \"\" and postbackUrl \"\" are taken as absent (family: customerPhone || '', only_digits(phone ?? ''))", async () => {
    const body = familyPix({ customer: { ...familyPix().customer, phone: "" }, postbackUrl: "" });
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body });
    expect(res.status, res.text).toBe(201);
    expect(res.body.customer.phone).toBeNull();
    expect(res.body.postbackUrl).toBeNull();
    const spaces = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ customer: { ...familyPix().customer, phone: "   " }, postbackUrl: " " }) });
    expect(spaces.status, spaces.text).toBe(201);
    // The contract is unchanged: "" is not a phone nor a URL there.
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: { ...body, items: [{ title: "A", unitPrice: 1990, quantity: 1, tangible: false }] } });
    expect(api.status).toBe(400);
    expect(api.body.errors.map((e: any) => e.field).sort()).toEqual(["customer.phone", "postbackUrl"]);
  });

  it("other optional text fields sent as \"\" are taken as absent too (family: form values left empty)", async () => {
    const base = familyPix();
    const body = {
      ...base,
      externalRef: "",
      returnUrl: "",
      ip: "",
      customer: { ...base.customer, phone: "", externalRef: " " },
      items: [{ ...base.items[0], externalRef: "" }],
      shipping: { fee: null, address: { street: "", zipCode: "" } },
    };
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body });
    expect(res.status, res.text).toBe(201);
    // installments and shipping.fee left empty too: the defaults (1, no fee).
    const numbers = await call("POST", "/v1/transactions", { auth: familyAuth(), body: { ...familyPix(), installments: "", shipping: { fee: " " } } });
    expect(numbers.status, numbers.text).toBe(201);
    expect(numbers.body).toMatchObject({ installments: 1 });
    expect(res.body).toMatchObject({ externalRef: null, ip: null, customer: { phone: null, externalRef: null } });
    const [row] = await getDb().select({ returnUrl: transactions.returnUrl, items: transactions.items }).from(transactions).where(eq(transactions.id, res.body.id));
    expect(row.returnUrl).toBeNull();
    expect(row.items[0]).not.toHaveProperty("externalRef");
  });

  it("items[].tangible as 1/0 or \"true\"/\"false\" is read as a boolean (family: tangible from a database flag)", async () => {
    const items = [
      { title: "A", unitPrice: 500, quantity: 1, tangible: 1 },
      { title: "B", unitPrice: 500, quantity: 1, tangible: 0 },
      { title: "C", unitPrice: 500, quantity: 1, tangible: "true" },
      { title: "D", unitPrice: 490, quantity: 1, tangible: "false" },
    ];
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ items }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.items.map((i: any) => i.tangible)).toEqual([true, false, true, false]);
    const bad = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ items: [{ ...items[0], tangible: 2 }], amount: 500 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ field: "items.0.tangible" }));
    // The contract keeps true or false.
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyPix({ items }) });
    expect(api.status).toBe(400);
  });
});

describe("/v1: items and the delivery address under other gateways' names", () => {
  it("items[].name and price are title and unitPrice (family: items: [{ name, quantity, price }])", async () => {
    const body = familyPix({ amount: 5990, items: [{ name: "Kit", quantity: 1, price: 5990 }] });
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body });
    expect(res.status, res.text).toBe(201);
    expect(res.body.items).toEqual([expect.objectContaining({ title: "Kit", unitPrice: 5990, quantity: 1 })]);
    expect(res.body.items[0]).not.toHaveProperty("name");
    // Both names with one value: taken; with two: refused naming the alias, never a guess.
    const same = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ amount: 500, items: [{ name: "Kit", title: "Kit", price: "500", unitPrice: 500, quantity: 1 }] }) });
    expect(same.status, same.text).toBe(201);
    const differ = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ amount: 500, items: [{ title: "Kit", unitPrice: 500, price: 400, quantity: 1 }] }) });
    expect(differ.status).toBe(400);
    expect(differ.body.errors).toEqual([expect.objectContaining({ field: "items.0.price" })]);
    // The contract keeps its names.
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: { ...body, items: [{ name: "Kit", quantity: 1, price: 5990, tangible: false }] } });
    expect(api.status).toBe(400);
  });

  it("customer.address is the shipping address when the body has none (family: the delivery address sent on the customer)", async () => {
    const address = { street: "Rua das Flores", streetNumber: "100", complement: "", zipCode: "01310-100", neighborhood: "Centro", city: "São Paulo", state: "SP", country: "br" };
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ customer: { ...familyPix().customer, address } }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.shipping).toMatchObject({ fee: null, address: { street: "Rua das Flores", streetNumber: "100", complement: null, zipCode: "01310100", city: "São Paulo", state: "SP" } });
    const read = await call("GET", `/v1/transactions/${res.body.id}`, { auth: familyAuth() });
    expect(read.body.shipping.address.zipCode).toBe("01310100");
    // A shipping address sent wins; a fee sent alone gets the customer's address.
    const own = { street: "Av. Paulista", zipCode: "01311000" };
    const both = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ customer: { ...familyPix().customer, address }, shipping: { address: own } }) });
    expect(both.body.shipping.address).toMatchObject({ street: "Av. Paulista", city: null });
    const fee = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ amount: 2490, customer: { ...familyPix().customer, address }, shipping: { fee: 500 } }) });
    expect(fee.status, fee.text).toBe(201);
    expect(fee.body.shipping).toMatchObject({ fee: 500, address: { street: "Rua das Flores" } });
    // One that does not read as an address is ignored, as before: never a refusal for a field the contract ignores.
    const odd = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ customer: { ...familyPix().customer, address: { street: "x".repeat(300) } } }) });
    expect(odd.status, odd.text).toBe(201);
    expect(odd.body.shipping).toBeNull();
    // /api/v1 ignores customer.address (the contract).
    const api = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyPix({ customer: { ...familyPix().customer, address }, items: [{ title: "A", unitPrice: 1990, quantity: 1, tangible: false }] }) });
    expect(api.status, api.text).toBe(201);
    expect(api.body.data.shipping).toBeNull();
  });
});

describe("/v1: expiry dates as the family writes them", () => {
  it("pix.expirationDate is the day AAAA-MM-DD in Brasília and expiresAt the full time (family: new Date(pix.expirationDate + 'T23:59:59'))", async () => {
    const url = `${r.url}/pix-expiry`;
    const created = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ pix: { expiresInDays: 3 }, postbackUrl: url }) });
    expect(created.status, created.text).toBe(201);
    const pix = created.body.pix;
    expect(pix.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(new Date(`${pix.expirationDate}T23:59:59`).getTime())).toBe(false);
    expect(pix.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(pix.expirationDate).toBe(brasiliaDay(new Date(pix.expiresAt)));
    expect(Date.parse(pix.expiresAt) - Date.parse(created.body.createdAt)).toBe(3 * 86_400_000);
    expect((await call("GET", `/v1/transactions/${created.body.id}`, { auth: familyAuth() })).body.pix).toEqual(pix);
    const [hook] = await postbacksOf(created.body.id, 1);
    expect(hook.data.pix).toMatchObject({ expirationDate: pix.expirationDate, expiresAt: pix.expiresAt });
    // The contract keeps the ISO time in expirationDate, and no expiresAt.
    const api = await call("GET", `/api/v1/transactions/${created.body.id}`, { auth: acct.secretKey });
    expect(api.body.data.pix.expirationDate).toBe(pix.expiresAt);
    expect(api.body.data.pix).not.toHaveProperty("expiresAt");
  });

  it("boleto.expirationDate is the due date AAAA-MM-DD beside dueDate (family: tx.boleto?.expirationDate)", async () => {
    const created = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ paymentMethod: "boleto", boleto: { expiresInDays: 5 } }) });
    expect(created.status, created.text).toBe(201);
    const boleto = created.body.boleto;
    expect(boleto.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(boleto.expirationDate).toBe(boleto.dueDate);
    expect((await call("GET", `/v1/transactions/${created.body.id}`, { auth: familyAuth() })).body.boleto.expirationDate).toBe(boleto.dueDate);
    const api = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: familyPix({ paymentMethod: "boleto", items: [{ title: "A", unitPrice: 1990, quantity: 1, tangible: false }] }),
    });
    expect(api.status, api.text).toBe(201);
    expect(api.body.data.boleto).not.toHaveProperty("expirationDate");
  });
});

describe("/v1: a card's refusal and expiry as the family reads them", () => {
  it("refusedReason is an object { code, acquirerCode, description, message, createdAt } (family: refusedReason?.description || \"Transação recusada\")", async () => {
    const url = `${r.url}/refused`;
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(REFUSED_CARD), { postbackUrl: url }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe("refused");
    const reason = res.body.refusedReason;
    expect(reason).toEqual({
      code: "card_declined",
      acquirerCode: "card_declined",
      description: "O banco emissor recusou o pagamento. Tente outro cartão ou fale com seu banco.",
      message: "O banco emissor recusou o pagamento. Tente outro cartão ou fale com seu banco.",
      createdAt: res.body.createdAt,
    });
    expect((await call("GET", `/v1/transactions/${res.body.id}`, { auth: familyAuth() })).body.refusedReason).toEqual(reason);
    const [hook] = await postbacksOf(res.body.id, 1);
    expect(hook.data.refusedReason).toEqual(reason);
    // An approved card: null.
    const paid = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken()) });
    expect(paid.body.status).toBe("paid");
    expect(paid.body.refusedReason).toBeNull();
    // The contract keeps the code as a string.
    const api = await call("GET", `/api/v1/transactions/${res.body.id}`, { auth: acct.secretKey });
    expect(api.body.data.refusedReason).toBe("card_declined");
  });

  it("card.expirationMonth and expirationYear are integers (family: card.expirationMonth === 3)", async () => {
    const token = await familyToken({ ...APPROVED_CARD, expirationMonth: "03", expirationYear: "2030" });
    const res = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(token) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.card).toMatchObject({ expirationMonth: 3, expirationYear: 2030 });
    expect((await call("GET", `/v1/transactions/${res.body.id}`, { auth: familyAuth() })).body.card).toMatchObject({ expirationMonth: 3, expirationYear: 2030 });
    const api = await call("GET", `/api/v1/transactions/${res.body.id}`, { auth: acct.secretKey });
    expect(api.body.data).not.toHaveProperty("card");
    const apiCard = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: familyCard(await familyToken({ ...APPROVED_CARD, expirationMonth: "03", expirationYear: "2030" })),
    });
    expect(apiCard.body.data.card).toMatchObject({ expirationMonth: "03", expirationYear: "2030" });
  });

  it("the reference documents the new /v1 shapes, and every /v1 answer of them conforms to it", async () => {
    const doc = (await call("GET", "/v1/openapi.json")).body;
    const schemas = doc.components.schemas;
    expect(schemas.TransactionV1.properties.metadata.type).toBeUndefined();
    expect(schemas.TransactionV1.properties.pix.properties.expiresAt.format).toBe("date-time");
    expect(schemas.TransactionV1.properties.pix.properties.expirationDate.format).toBe("date");
    expect(schemas.BoletoV1.properties.expirationDate.format).toBe("date");
    expect(schemas.CardSummaryV1.properties.expirationMonth.type).toEqual(["integer", "null"]);
    expect(schemas.TransactionV1.properties.refusedReason.anyOf[0].required).toEqual(["code", "acquirerCode", "description", "message", "createdAt"]);
    expect(schemas.CheckoutV1.properties.metadata.type).toBeUndefined();
    // The contract's schemas are unchanged.
    expect(schemas.Transaction.properties.metadata.type).toEqual(["string", "null"]);
    expect(schemas.Transaction.properties.refusedReason.type).toBe("string");
    const check = (method: string, path: string, res: { status: number; body: unknown }) =>
      expect(validateAgainst(doc, responseSchema(doc, method, path, res.status), res.body), `${method} ${path}`).toEqual([]);
    check("POST", "/v1/transactions", await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata: { a: [1, { b: true }] } }) }));
    check("POST", "/v1/transactions", await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ metadata: [1, "x"] }) }));
    check("POST", "/v1/transactions", await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ paymentMethod: "boleto" }) }));
    check("POST", "/v1/transactions", await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken(REFUSED_CARD)) }));
    check("POST", "/v1/transactions", await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyCard(await familyToken()) }));
    check("POST", "/v1/checkouts", await call("POST", "/v1/checkouts", { auth: familyAuth(), body: { amount: 3000, metadata: { k: 1 } } }));
    check("GET", "/v1/checkouts", await call("GET", "/v1/checkouts", { auth: familyAuth() }));
    check("GET", "/v1/transactions", await call("GET", "/v1/transactions?limit=50", { auth: familyAuth() }));
  });
});

describe("validation messages a merchant can read", () => {
  it("installments \"2.0\" is refused with a sentence, not zod's pattern (both dialects)", async () => {
    for (const prefix of ["/v1", "/api/v1"]) {
      const res = await call("POST", `${prefix}/transactions`, { auth: prefix === "/v1" ? familyAuth() : acct.secretKey, body: familyCard("ct_x", { installments: "2.0" }) });
      expect(res.status).toBe(400);
      const e = res.body.errors.find((x: any) => x.field === "installments");
      expect(e.message, prefix).toBe("must be a whole number from 1 to 12");
      expect(res.body.message).not.toMatch(/pattern|Invalid/);
    }
    // The same rule for every whole number of the schema: expiry days too.
    const days = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyPix({ pix: { expiresInDays: "1.5" } }) });
    expect(days.body.errors).toContainEqual({ field: "pix.expiresInDays", message: "must be a whole number from 1 to 30" });
    // And no zod default text for an over-long card token.
    const hash = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: familyCard("c".repeat(5000)) });
    expect(hash.body.errors).toContainEqual({ field: "card.hash", message: "must have at most 4096 characters" });
  });

  it("a document of the wrong length says how many digits it has, where a CPF has 11 and a CNPJ 14 (both dialects)", async () => {
    const v1 = await call("POST", "/v1/transactions", { auth: familyAuth(), body: familyPix({ customer: { name: "Ana", email: "a@example.com", document: "1234567890" } }) });
    expect(v1.status).toBe(400);
    expect(v1.body.errors).toContainEqual({ field: "customer.document.number", message: "has 10 digits, where a CPF has 11 and a CNPJ 14" });
    const api = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: familyPix({ customer: { name: "Ana", email: "a@example.com", document: { type: "cpf", number: "123.456.789-0" } } }),
    });
    expect(api.body.errors).toContainEqual({ field: "customer.document.number", message: "has 10 digits, where a CPF has 11 and a CNPJ 14" });
    // A CNPJ's length sent as a CPF names the type to send.
    const mixed = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: familyPix({ customer: { name: "Ana", email: "a@example.com", document: { type: "cpf", number: "11.222.333/0001-81" } } }),
    });
    expect(mixed.body.errors).toContainEqual({ field: "customer.document.number", message: "has 14 digits, a CNPJ's length: send type cnpj for a CNPJ, or the CPF's 11 digits" });
    // The right length with wrong check digits keeps its message.
    const digits = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: familyPix({ customer: { name: "Ana", email: "a@example.com", document: { type: "cpf", number: "12345678901" } } }),
    });
    expect(digits.body.errors).toContainEqual({ field: "customer.document.number", message: "must be a valid CPF (11 digits with valid check digits)" });
  });
});
