/**
 * The published reference matches what the API sends: real responses of every operation are
 * validated against the OpenAPI document (response schemas are closed: an undocumented field fails).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, type CallResult } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { responseSchema, validateAgainst } from "../helpers/json-schema";
import {
  REFUSED_CARD,
  createBoleto,
  createCard,
  createCheckout,
  createPix,
  boletoBody,
  cardBody,
  paidPix,
  pixBody,
  requestCashOut,
  sandboxMove,
  tokenize,
} from "../helpers/flows";
import { and, eq, isNotNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import { notificationBody } from "@/lib/webhooks/payloads";
import { webhookEventView } from "@/lib/services/webhooks/webhook-view";
import { z } from "zod";
import { CashOutNotificationSchema, TransactionNotificationSchema } from "@/lib/openapi/components";
import { buildOpenApiDocument, TRIMMED_DIGITS_PATTERN } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let doc: Record<string, any>;
let acct: CreatedAccount;
const checked = new Set<string>();

function conforms(method: string, path: string, res: CallResult) {
  const schema = responseSchema(doc, method, path, res.status);
  const problems = validateAgainst(doc, schema, res.body);
  expect(problems, `${method} ${path} -> ${res.status}: ${res.text.slice(0, 300)}`).toEqual([]);
  checked.add(`${method.toLowerCase()} ${path}`);
}

beforeAll(async () => {
  doc = buildOpenApiDocument();
  acct = await createTestAccount("Conformance");
});

describe("responses conform to the OpenAPI document", () => {
  it("transactions: create (pix, boleto, card approved and refused), read, list, move, refund, delivery, webhooks", async () => {
    const auth = acct.secretKey;
    const pixRes = await call("POST", "/api/v1/transactions", {
      auth,
      body: { ...pixBody(), shipping: { fee: 0, address: { street: "Rua A", city: "São Paulo" } } },
    });
    conforms("POST", "/api/v1/transactions", pixRes);
    const pix = pixRes.body.data;
    conforms("POST", "/api/v1/transactions", await call("POST", "/api/v1/transactions", { auth, body: boletoBody() }));
    const hash = await tokenize(acct.publicKey);
    conforms("POST", "/api/v1/transactions", await call("POST", "/api/v1/transactions", { auth, body: cardBody(hash) }));
    const refused = await createCard(acct, REFUSED_CARD);
    expect(refused.status).toBe("refused");
    await createBoleto(auth);

    conforms("GET", "/api/v1/transactions/{id}", await call("GET", `/api/v1/transactions/${pix.id}`, { auth }));
    conforms("GET", "/api/v1/transactions/{id}", await call("GET", `/api/v1/transactions/${refused.id}`, { auth }));
    conforms("GET", "/api/v1/transactions", await call("GET", "/api/v1/transactions?limit=10", { auth }));
    conforms("PUT", "/api/v1/transactions/{id}/test", await call("PUT", `/api/v1/transactions/${pix.id}/test`, { auth, body: { status: "paid" } }));
    conforms(
      "PUT",
      "/api/v1/transactions/{id}/delivery",
      await call("PUT", `/api/v1/transactions/${pix.id}/delivery`, { auth, body: { status: "in_transit", trackingCode: "BR1" } }),
    );
    conforms("POST", "/api/v1/transactions/{id}/refund", await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth, body: { amount: 100 } }));
    conforms("GET", "/api/v1/transactions/{id}/webhooks", await call("GET", `/api/v1/transactions/${pix.id}/webhooks`, { auth }));
  });

  it("webhooks: the events of transactions created through /v1 (the family's body, with objectId) and /api/v1 list as documented", async () => {
    const auth = acct.secretKey;
    const hook = { postbackUrl: "https://shop.example/hooks" };
    const v1 = async (body: Record<string, unknown>) => {
      const res = await call("POST", "/v1/transactions", { auth, body });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const ids: number[] = [];
    const pix = await v1(pixBody(hook));
    await sandboxMove(auth, pix.id, "paid");
    await paidPix(acct, 5000); // other money: a full refund keeps the fee, so it needs the fee's worth more
    const refunded = await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth, body: {} });
    expect(refunded.status, refunded.text).toBe(200);
    ids.push(pix.id);
    ids.push((await v1(cardBody(await tokenize(acct.publicKey), hook))).id);
    ids.push((await v1(cardBody(await tokenize(acct.publicKey, REFUSED_CARD), hook))).id);
    ids.push((await v1(boletoBody())).id); // no postbackUrl: url null, skipped
    ids.push((await createPix(auth, hook)).id);
    let withObjectId = 0;
    for (const id of ids) {
      const res = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth });
      conforms("GET", "/api/v1/transactions/{id}/webhooks", res);
      for (const e of res.body.data) if (e.body.objectId !== undefined) withObjectId++;
    }
    expect(withObjectId).toBeGreaterThanOrEqual(6);

    // Cash-out events have the same view (GET /cashOut/{id}/webhooks, where the document has it).
    await paidPix(acct, 5000);
    const co = await requestCashOut(auth, { amount: 300, pixKey: "maria@example.com", ...hook });
    const { advanceDueCashOuts } = await import("@/lib/services/cash-outs/advance-cash-outs");
    await advanceDueCashOuts({ now: new Date(Date.now() + 3_600_000) });
    const rows = await getDb().select().from(webhookEvents).where(eq(webhookEvents.cashOutId, co.id));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const r of rows) {
      const view = webhookEventView(r, []);
      expect(validateAgainst(doc, { $ref: "#/components/schemas/WebhookEvent" }, JSON.parse(JSON.stringify(view))), `cash_out ${r.status}`).toEqual([]);
    }
    const listed = await call("GET", `/api/v1/cashOut/${co.id}/webhooks`, { auth });
    conforms("GET", "/api/v1/cashOut/{id}/webhooks", listed);
    expect(listed.body.data.map((e: { id: number }) => e.id)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    expect(listed.body.data.every((e: { body: { type: string } }) => e.body.type === "cash_out")).toBe(true);
    // The same under /v1.
    expect((await call("GET", `/v1/cashOut/${co.id}/webhooks`, { auth })).body).toHaveLength(rows.length);
  });

  it("webhooks: redeliver", async () => {
    const t = await createPix(acct.secretKey, { postbackUrl: "http://127.0.0.1:9/unreachable" });
    const events = await call("GET", `/api/v1/transactions/${t.id}/webhooks`, { auth: acct.secretKey });
    const eventId = events.body.data[0].id;
    const res = await call("POST", `/api/v1/webhooks/${eventId}/redeliver`, { auth: acct.secretKey });
    expect([200, 409, 422]).toContain(res.status);
    conforms("POST", "/api/v1/webhooks/{eventId}/redeliver", res);
  });

  it("webhooks: skip, and the list with an event waiting for an earlier one", async () => {
    const t = await createPix(acct.secretKey, { postbackUrl: "http://127.0.0.1:9/unreachable" });
    await call("PUT", `/api/v1/transactions/${t.id}/test`, { auth: acct.secretKey, body: { status: "paid" } });
    const events = await call("GET", `/api/v1/transactions/${t.id}/webhooks`, { auth: acct.secretKey });
    conforms("GET", "/api/v1/transactions/{id}/webhooks", events);
    expect(events.body.data[1].waitingForEventId).toBe(events.body.data[0].id);
    const res = await call("POST", `/api/v1/webhooks/${events.body.data[0].id}/skip`, { auth: acct.secretKey });
    expect(res.status, res.text).toBe(200);
    conforms("POST", "/api/v1/webhooks/{eventId}/skip", res);
  });

  it("balance, statement and cash-out", async () => {
    const auth = acct.secretKey;
    await paidPix(acct, 20000);
    await createCard(acct);
    conforms("GET", "/api/v1/balance", await call("GET", "/api/v1/balance", { auth }));
    conforms("GET", "/api/v1/balance/statement", await call("GET", "/api/v1/balance/statement?limit=50", { auth }));
    const res = await call("POST", "/api/v1/cashOut/request", { auth, body: { amount: 1000, pixKey: "111.444.777-35" } });
    conforms("POST", "/api/v1/cashOut/request", res);
    conforms("GET", "/api/v1/cashOut/{id}", await call("GET", `/api/v1/cashOut/${res.body.data.id}`, { auth }));
    await requestCashOut(auth, { amount: 500, pixKey: "+5511987654321", description: "x", externalRef: "p-1" });
    conforms("GET", "/api/v1/cashOut", await call("GET", "/api/v1/cashOut", { auth }));
    const broke = await createTestAccount("Broke");
    conforms("POST", "/api/v1/cashOut/request", await call("POST", "/api/v1/cashOut/request", { auth: broke.secretKey, body: { amount: 1000, pixKey: "maria@example.com" } }));
  });

  it("a digit-string amount with spaces around it (\" 150 \"): the server trims and accepts it, and so does the document's pattern", async () => {
    const auth = acct.secretKey;
    const t = await paidPix(acct, 5000);
    const refund = await call("POST", `/api/v1/transactions/${t.id}/refund`, { auth, body: { amount: " 150 " } });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.data.refundedAmount).toBe(150);
    const cashOut = await call("POST", "/api/v1/cashOut/request", { auth, body: { amount: " 150 ", pixKey: "maria@example.com" } });
    expect(cashOut.status, cashOut.text).toBe(201);
    expect(cashOut.body.data.amount).toBe(150);
    for (const name of ["RefundTransaction", "CashOutRequest"]) {
      const alternatives: Record<string, any>[] = doc.components.schemas[name].properties.amount.anyOf;
      const pattern = alternatives.find((a) => a.type === "string")?.pattern;
      expect(pattern, name).toBe(TRIMMED_DIGITS_PATTERN);
      for (const ok of ["150", " 150 ", "\t150\n"]) expect(new RegExp(pattern).test(ok), `${name} ${JSON.stringify(ok)}`).toBe(true);
      for (const bad of ["1 50", "15.0", "-150", ""]) expect(new RegExp(pattern).test(bad), `${name} ${JSON.stringify(bad)}`).toBe(false);
    }
  });

  it("the fee is capped at the amount, as the document's fees says: a boleto of 100 centavos has fees 100, not the flat 349", async () => {
    const res = await call("POST", "/api/v1/transactions", {
      auth: acct.secretKey,
      body: boletoBody({ amount: 100, items: [{ title: "Taxa", unitPrice: 100, quantity: 1, tangible: false }], postbackUrl: "https://shop.example/hooks" }),
    });
    conforms("POST", "/api/v1/transactions", res);
    expect(res.body.data.fees).toBe(100);
    const events = await call("GET", `/api/v1/transactions/${res.body.data.id}/webhooks`, { auth: acct.secretKey });
    expect(events.body.data[0].body.data.fee).toEqual({ netAmount: 0, fixedAmount: 349, estimatedFee: 100 });
    expect(doc.components.schemas.CreatedTransaction.properties.fees.description).toMatch(/never more than the amount/);
  });

  it("checkouts", async () => {
    const auth = acct.secretKey;
    const res = await call("POST", "/api/v1/checkouts", { auth, body: { items: [{ title: "Curso", unitPrice: 19900 }], methods: ["PIX", "credit_card"] } });
    conforms("POST", "/api/v1/checkouts", res);
    await createCheckout(auth);
    conforms("GET", "/api/v1/checkouts/{id}", await call("GET", `/api/v1/checkouts/${res.body.data.id}`, { auth }));
    conforms("GET", "/api/v1/checkouts", await call("GET", "/api/v1/checkouts", { auth }));
  });

  it("account, health, openapi.json", async () => {
    conforms("GET", "/api/v1/company", await call("GET", "/api/v1/company", { auth: acct.secretKey }));
    conforms("GET", "/api/v1/health", await call("GET", "/api/v1/health"));
    conforms("GET", "/api/v1/openapi.json", await call("GET", "/api/v1/openapi.json"));
  });

  it("error bodies: 400, 401, 404, 409, 422", async () => {
    const auth = acct.secretKey;
    conforms("POST", "/api/v1/transactions", await call("POST", "/api/v1/transactions", { auth, rawBody: "{not json", headers: { "content-type": "application/json" } }));
    conforms("POST", "/api/v1/transactions", await call("POST", "/api/v1/transactions", { auth, body: { paymentMethod: "cheque" } }));
    conforms("GET", "/api/v1/transactions/{id}", await call("GET", "/api/v1/transactions/999999999", { auth }));
    conforms("GET", "/api/v1/company", await call("GET", "/api/v1/company", { auth: "Basic " + Buffer.from("sk_test_nope:").toString("base64") }));
    const t = await createPix(auth);
    conforms("POST", "/api/v1/transactions/{id}/refund", await call("POST", `/api/v1/transactions/${t.id}/refund`, { auth, body: {} }));
    const body = pixBody();
    await call("POST", "/api/v1/transactions", { auth, body, headers: { "idempotency-key": "conf-1" } });
    conforms(
      "POST",
      "/api/v1/transactions",
      await call("POST", "/api/v1/transactions", { auth, body: { ...body, amount: 1 }, headers: { "idempotency-key": "conf-1" } }),
    );
    conforms("POST", "/api/v1/card-token", await call("POST", `/api/v1/card-token?publicKey=${acct.publicKey}`, { body: { number: "4242424242424241" } }));
    conforms("PUT", "/api/v1/transactions/{id}/test", await call("PUT", `/api/v1/transactions/${t.id}/test`, { auth, body: { status: "chargedback" } }));
  });

  it("checked a JSON response of every JSON operation in the registry", () => {
    const jsonOps = OPERATIONS.filter((o) => Object.values(o.responses).some((r) => r.schema)).map((o) => `${o.method} ${o.path}`);
    expect(jsonOps.filter((k) => !checked.has(k))).toEqual([]);
  });
});

/**
 * The document shows webhook bodies as request bodies (open objects); this checks them closed, in
 * their output form, so a field the reference does not list fails too.
 */
function strict(schema: z.ZodType, value: unknown): string[] {
  const json = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })).replaceAll("#/$defs/", "#/components/schemas/"));
  return validateAgainst({ components: { schemas: json.$defs ?? {} } }, json, JSON.parse(JSON.stringify(value)));
}

describe("webhook bodies conform to the document's webhooks", () => {
  it("transaction notifications (pix, boleto, card approved and refused, paid, refunded) and cash_out notifications", async () => {
    const auth = acct.secretKey;
    const hook = { postbackUrl: "https://shop.example/hooks" };
    const pix = await createPix(auth, hook);
    await sandboxMove(auth, pix.id, "paid");
    await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth, body: {} });
    const boleto = await createBoleto(auth, hook);
    const approved = await createCard(acct, undefined, hook);
    const refused = await createCard(acct, REFUSED_CARD, hook);
    const txSchema = doc.webhooks.transaction.post.requestBody.content["application/json"].schema;
    let seen = 0;
    for (const id of [pix.id, boleto.id, approved.id, refused.id]) {
      const events = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth });
      for (const e of events.body.data) {
        expect(validateAgainst(doc, txSchema, e.body), `${e.body.data.paymentMethod} ${e.body.data.status}`).toEqual([]);
        expect(strict(TransactionNotificationSchema, e.body), `${e.body.data.paymentMethod} ${e.body.data.status}`).toEqual([]);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(6);

    await requestCashOut(auth, { amount: 300, pixKey: "maria@example.com", ...hook });
    const { advanceDueCashOuts } = await import("@/lib/services/cash-outs/advance-cash-outs");
    await advanceDueCashOuts({ now: new Date(Date.now() + 3_600_000) });
    await advanceDueCashOuts({ now: new Date(Date.now() + 7_200_000) });
    const coSchema = doc.webhooks.cash_out.post.requestBody.content["application/json"].schema;
    // Only events with a URL are ever sent (the others are kept for the timeline).
    const rows = await getDb()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.type, "cash_out"), eq(webhookEvents.companyId, acct.companyId), isNotNull(webhookEvents.url)));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) {
      expect(validateAgainst(doc, coSchema, notificationBody(r)), `cash_out ${r.status}`).toEqual([]);
      expect(strict(CashOutNotificationSchema, notificationBody(r)), `cash_out ${r.status}`).toEqual([]);
    }
  });
});

describe("the checker itself", () => {
  it("fails on an undocumented field, a wrong type and a missing required field", () => {
    const schema = responseSchema(doc, "GET", "/api/v1/company", 200);
    const good = { success: true, status: 200, data: { id: 1, name: "a", document: "1", documentType: "cpf", email: "e", pixKey: null, pixKeyType: null, publicKey: "pk", feePlan: { pix: { percentBp: 1, fixed: 0 }, card: { percentBp: 1, fixed: 0, perExtraInstallmentBp: 0 }, boleto: { percentBp: 0, fixed: 1 }, cashOut: { fixed: 0 } }, createdAt: "x" } };
    expect(validateAgainst(doc, schema, good)).toEqual([]);
    expect(validateAgainst(doc, schema, { ...good, data: { ...good.data, secretKey: "sk_" } }).join()).toMatch(/undocumented property secretKey/);
    expect(validateAgainst(doc, schema, { ...good, data: { ...good.data, id: "1" } }).join()).toMatch(/expected integer/);
    const noEmail: Record<string, unknown> = { ...good.data };
    delete noEmail.email;
    expect(validateAgainst(doc, schema, { ...good, data: noEmail }).join()).toMatch(/missing required email/);
    const cashOut = { id: 1, type: "cash_out", url: "https://x", data: { id: 1, status: "pending", amount: 1, fee: 0, pixKey: "a@b.c", pixKeyType: "email", source: "arara", description: null, externalRef: null, end2endId: null, failReason: null, createdAt: "x", completedAt: null } };
    expect(strict(CashOutNotificationSchema, cashOut)).toEqual([]);
    expect(strict(CashOutNotificationSchema, { ...cashOut, data: { ...cashOut.data, pan: "4111" } }).join()).toMatch(/undocumented property pan/);
  });
});

describe("non-JSON operations", () => {
  it("card-token answers text/plain and js answers JavaScript", async () => {
    const token = await call("POST", `/api/v1/card-token?publicKey=${acct.publicKey}`, { body: { card: { number: "4242424242424242", holderName: "A B", expirationMonth: 1, expirationYear: 2033, cvv: 123 } } });
    expect(token.status).toBe(200);
    expect(token.headers.get("content-type")).toMatch(/^text\/plain/);
    const js = await call("GET", "/api/v1/js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(doc.paths["/api/v1/card-token"].post.responses["200"].content["text/plain"]).toBeDefined();
  });
});
