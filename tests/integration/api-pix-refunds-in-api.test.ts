/**
 * A refund of a PIX received through the merchant's own PSP (API Pix), as the API tells the merchant,
 * against the local PSP (real mutual TLS):
 *
 * - the transaction resource (read, list, the refund's answer, /v1 too) shows each refund asked of the
 *   PSP (`refunds`) and what the open ones hold (`pendingRefundAmount`): in progress, after DEVOLVIDO,
 *   after NAO_REALIZADO; the transaction's own webhooks carry the same snapshot;
 * - a refund that ends sends one `refund` notification (done or failed), written in the database
 *   transaction that closes the refund and moves its money, once even when the PSP's notification and
 *   the reconciliation both report the outcome;
 * - any other transaction reads as before: no new field, and no query of psp_refunds.
 *
 * Every body is checked against the OpenAPI document (closed schemas: an undocumented field fails).
 */
import { and, asc, desc, eq, like, sql } from "drizzle-orm";
import { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { boletoBody, createCard, pixBody } from "../helpers/flows";
import { createTestAccount } from "../helpers/accounts";
import { responseSchema, validateAgainst } from "../helpers/json-schema";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb, type Queryable } from "@/lib/db/client";
import { accountPspConfigs, ledgerJournals, pspCharges, pspRefunds, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { closeApiPixClients } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { handleApiPixWebhook } from "@/lib/services/psp/api-pix-webhook";
import { applyDevolucao } from "@/lib/services/psp/api-pix-refunds";
import { pspRefundsOf } from "@/lib/services/transactions/transaction-view";
import { notificationBody } from "@/lib/webhooks/payloads";
import { RefundNotificationSchema, TransactionNotificationSchema } from "@/lib/openapi/components";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import type { Devolucao } from "@/lib/processors/api-pix/schemas";

const KEY = "recebimentos@loja.example";
const HOOK = "http://127.0.0.1:9/hook";
let pki: TestPki;
let psp: ApiPixPsp;
let doc: Record<string, any>;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  // The PSP's notifications go nowhere: each test hands them over itself, or lets the reconciliation find it.
  const { getEnv } = await import("@/lib/env");
  (getEnv() as { baseUrl: string }).baseUrl = "http://127.0.0.1:9";
  doc = buildOpenApiDocument();
});

afterEach(async () => {
  expect(psp.internalErrors).toEqual([]);
  expect((await checkLedger(getDb())).violations).toEqual([]);
});

afterAll(async () => {
  closeApiPixClients();
  await psp?.close();
});

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const txidOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].txid;
const refundRows = (id: number) => getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id)).orderBy(asc(pspRefunds.id));
const eventsOf = (id: number) => getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id)).orderBy(asc(webhookEvents.id));
const refundEventsOf = async (id: number) => (await eventsOf(id)).filter((e) => e.type === "refund");

/** Validates a body against a response of the document (closed: an undocumented field fails). */
function conforms(method: string, path: string, res: { status: number; body: unknown; text: string }) {
  expect(validateAgainst(doc, responseSchema(doc, method, path, res.status), res.body), `${method} ${path}: ${res.text.slice(0, 300)}`).toEqual([]);
}

/** A notification body checked closed against its zod schema, in its output form. */
function strict(schema: z.ZodType, value: unknown): string[] {
  const json = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })).replaceAll("#/$defs/", "#/components/schemas/"));
  return validateAgainst({ components: { schemas: json.$defs ?? {} } }, json, JSON.parse(JSON.stringify(value)));
}

async function paidPixAtPsp(secretKey: string, amount: number, base = "/api/v1") {
  const r = await call("POST", `${base}/transactions`, {
    auth: secretKey,
    body: pixBody({ amount, items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }], postbackUrl: HOOK, externalRef: `pedido-${amount}` }),
  });
  expect(r.status, r.text).toBe(201);
  const id: number = base === "/v1" ? r.body.id : r.body.data.id;
  const pix = await psp.pay(await txidOf(id), { notify: "drop" });
  await reconcileApiPix({ now: later(5) });
  const [t] = await getDb().select().from(transactions).where(eq(transactions.id, id));
  expect(t).toMatchObject({ status: "paid", acquirerType: "api-pix" });
  return { id, e2eid: pix.endToEndId, created: r };
}

const refund = (secretKey: string, id: number, body: Record<string, unknown> = {}, base = "/api/v1") =>
  call("POST", `${base}/transactions/${id}/refund`, { auth: secretKey, body, headers: { "idempotency-key": `r-${id}-${Math.random()}` } });
const read = (secretKey: string, id: number, base = "/api/v1") => call("GET", `${base}/transactions/${id}`, { auth: secretKey });

describe("the transaction resource shows the refunds asked of the merchant's PSP", () => {
  it("in progress, then after DEVOLVIDO (partial, then full), in read, list and the refund's answer, and in the transaction's webhooks", async () => {
    const acc = await pspConfiguredAccount("Loja devoluções visíveis", psp, pki, KEY);
    const { id, e2eid, created } = await paidPixAtPsp(acc.secretKey, 5_000);
    // A PIX at the PSP shows the fields from its creation (it can have no refund yet: no query needed).
    expect(created.body.data).toMatchObject({ refunds: [], pendingRefundAmount: 0 });
    conforms("POST", "/api/v1/transactions", created);
    const before = await read(acc.secretKey, id);
    expect(before.body.data).toMatchObject({ status: "paid", refundedAmount: 0, refunds: [], pendingRefundAmount: 0 });

    // Asked: the answer, the read and the list say a refund of R$ 12,00 is in progress at the PSP.
    const asked = await refund(acc.secretKey, id, { amount: 1_200 });
    expect(asked.status, asked.text).toBe(200);
    conforms("POST", "/api/v1/transactions/{id}/refund", asked);
    const [open] = await refundRows(id);
    const inProgress = {
      status: "paid",
      refundedAmount: 0,
      pendingRefundAmount: 1_200,
      refunds: [{ id: open.id, amount: 1_200, status: "processing", reason: null, rtrId: open.rtrId, createdAt: open.createdAt.toISOString(), updatedAt: open.updatedAt.toISOString() }],
    };
    expect(asked.body.data).toMatchObject(inProgress);
    const got = await read(acc.secretKey, id);
    conforms("GET", "/api/v1/transactions/{id}", got);
    expect(got.body.data).toMatchObject(inProgress);
    const list = await call("GET", "/api/v1/transactions?limit=10", { auth: acc.secretKey });
    conforms("GET", "/api/v1/transactions", list);
    expect(list.body.data.data.find((t: { id: number }) => t.id === id)).toMatchObject(inProgress);
    // The /v1 dialect shows the same fields on its bare resource.
    const v1 = await read(acc.secretKey, id, "/v1");
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ id, ...inProgress });
    expect(validateAgainst(doc, { $ref: "#/components/schemas/TransactionV1" }, v1.body)).toEqual([]);
    // A refund still open sends nothing: the merchant got its answer.
    expect(await refundEventsOf(id)).toEqual([]);

    psp.settleDevolucao(e2eid, open.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    const [done] = await refundRows(id);
    expect(done).toMatchObject({ status: "done", failReason: null });
    expect(done.rtrId).toMatch(/^D/);
    const partDone = await read(acc.secretKey, id);
    conforms("GET", "/api/v1/transactions/{id}", partDone);
    expect(partDone.body.data).toMatchObject({
      status: "paid",
      refundedAmount: 1_200,
      pendingRefundAmount: 0,
      refunds: [{ id: done.id, amount: 1_200, status: "done", reason: null, rtrId: done.rtrId }],
    });
    // A partial refund sends no `transaction` event (no status change); its end is a `refund` event.
    const [doneEvent] = await refundEventsOf(id);
    expect(doneEvent).toMatchObject({ status: "done", url: HOOK, deliveryState: "pending", orderingKey: `transaction:${id}` });
    const doneBody = notificationBody(doneEvent) as { data: Record<string, any> };
    expect(doneBody).toMatchObject({ type: "refund", data: { id: done.id, status: "done", amount: 1_200, transactionId: id, transaction: { id, status: "paid", refundedAmount: 1_200, pendingRefundAmount: 0 } } });
    expect(strict(RefundNotificationSchema, doneBody)).toEqual([]);
    expect(validateAgainst(doc, doc.webhooks.refund.post.requestBody.content["application/json"].schema, doneBody)).toEqual([]);

    // The rest: a full refund, booked at DEVOLVIDO with the `refunded` event, which carries the refunds.
    await paidPixAtPsp(acc.secretKey, 1_000); // the fee goes back too: another sale covers it
    const rest = await refund(acc.secretKey, id);
    expect(rest.status, rest.text).toBe(200);
    const second = (await refundRows(id))[1];
    expect(second).toMatchObject({ amount: 3_800, status: "processing" });
    expect((await read(acc.secretKey, id)).body.data).toMatchObject({ status: "paid", refundedAmount: 1_200, pendingRefundAmount: 3_800 });
    psp.settleDevolucao(e2eid, second.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(15) });
    const full = await read(acc.secretKey, id);
    expect(full.body.data).toMatchObject({
      status: "refunded",
      refundedAmount: 5_000,
      pendingRefundAmount: 0,
      refunds: [
        { id: done.id, status: "done", amount: 1_200 },
        { id: second.id, status: "done", amount: 3_800 },
      ],
    });
    const events = await eventsOf(id);
    const refunded = events.filter((e) => e.type === "transaction" && e.status === "refunded");
    expect(refunded).toHaveLength(1);
    const refundedBody = notificationBody(refunded[0]) as { data: Record<string, any> };
    expect(refundedBody.data).toMatchObject({ status: "refunded", refundedAmount: 5_000, pendingRefundAmount: 0, refunds: [{ status: "done" }, { status: "done" }] });
    expect(strict(TransactionNotificationSchema, refundedBody)).toEqual([]);
    // In order: the status event first, then the second refund's `done`.
    const secondDone = (await refundEventsOf(id)).filter((e) => (e.payload as { id: number }).id === second.id);
    expect(secondDone).toHaveLength(1);
    expect(secondDone[0].id).toBeGreaterThan(refunded[0].id);
    // The transaction's `paid` event was written before any refund: its snapshot has none.
    const paid = events.find((e) => e.type === "transaction" && e.status === "paid")!;
    expect(notificationBody(paid).data).toMatchObject({ refunds: [], pendingRefundAmount: 0 });
    // The transaction's webhooks list shows the refund events beside its status events.
    const hooks = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: acc.secretKey });
    conforms("GET", "/api/v1/transactions/{id}/webhooks", hooks);
    expect(hooks.body.data.map((e: { type: string; status: string }) => `${e.type}:${e.status}`)).toEqual([
      "transaction:pending",
      "transaction:paid",
      "refund:done",
      "transaction:refunded",
      "refund:done",
    ]);
  });
});

describe("a devolução the PSP does not make", () => {
  it("shows failed with the PSP's reason, and sends one `refund` webhook, written with the release, however many report it", async () => {
    const acc = await pspConfiguredAccount("Loja devolução não realizada", psp, pki, KEY);
    const { id, e2eid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const asked = await refund(acc.secretKey, id, { amount: 1_000 });
    expect(asked.status, asked.text).toBe(200);
    const [open] = await refundRows(id);
    expect(open.status).toBe("processing");

    psp.settleDevolucao(e2eid, open.devolucaoId, "NAO_REALIZADO", "Conta do pagador encerrada");
    const dev = psp.pix.get(e2eid)!.devolucoes.find((d) => d.id === open.devolucaoId)! as Devolucao;
    psp.dropWebhooks();
    // The PSP's notification and the reconciliation report it at once, and a third report comes with
    // the refund as it was read before either closed it.
    const [config] = await getDb().select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, acc.companyId));
    await Promise.all([
      handleApiPixWebhook(config.webhookToken, { pix: [{ endToEndId: e2eid }] }, later(10)),
      reconcileApiPix({ now: later(10) }),
      applyDevolucao(open, { ...dev }, later(10)),
    ]);
    await handleApiPixWebhook(config.webhookToken, { pix: [{ endToEndId: e2eid }] }, later(11));
    await reconcileApiPix({ now: later(20) });

    const [failed] = await refundRows(id);
    expect(failed.status).toBe("failed");
    const events = await refundEventsOf(id);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ type: "refund", status: "failed", url: HOOK, deliveryState: "pending", dialect: "api" });
    const body = notificationBody(event) as { data: Record<string, any> };
    expect(body).toMatchObject({
      id: event.id,
      type: "refund",
      url: HOOK,
      data: {
        id: failed.id,
        status: "failed",
        amount: 1_000,
        transactionId: id,
        transaction: { id, status: "paid", refundedAmount: 0, pendingRefundAmount: 0, externalId: "pedido-5000" },
      },
    });
    expect(body.data.reason).toContain("Conta do pagador encerrada");
    expect(body.data.transaction.refunds).toEqual([expect.objectContaining({ id: failed.id, status: "failed", reason: body.data.reason })]);
    expect(strict(RefundNotificationSchema, body)).toEqual([]);
    expect(validateAgainst(doc, doc.webhooks.refund.post.requestBody.content["application/json"].schema, body)).toEqual([]);
    // No status event: the transaction did not change status, and `paid` is not sent again.
    expect((await eventsOf(id)).filter((e) => e.type === "transaction").map((e) => e.status)).toEqual(["pending", "paid"]);

    // Written in the database transaction that released the hold: the timeline entry, the release
    // journal, the refund row's change and the event share one transaction id.
    const xminOf = async (q: Promise<{ x: string }[]>) => (await q)[0].x;
    const db = getDb();
    const eventTx = await xminOf(db.select({ x: sql<string>`xmin::text` }).from(webhookEvents).where(eq(webhookEvents.id, event.id)));
    const releaseTx = await xminOf(
      db
        .select({ x: sql<string>`xmin::text` })
        .from(ledgerJournals)
        .where(and(eq(ledgerJournals.transactionId, id), like(ledgerJournals.description, "%not made by the PSP%"))),
    );
    const timelineTx = await xminOf(
      db
        .select({ x: sql<string>`xmin::text` })
        .from(transactionStatusChanges)
        .where(and(eq(transactionStatusChanges.transactionId, id), eq(transactionStatusChanges.cause, "psp_refund_failed"))),
    );
    const refundTx = await xminOf(db.select({ x: sql<string>`xmin::text` }).from(pspRefunds).where(eq(pspRefunds.id, failed.id)));
    expect(new Set([eventTx, releaseTx, timelineTx, refundTx]).size).toBe(1);

    // The resource says it too, and the whole amount is refundable again.
    const got = await read(acc.secretKey, id);
    conforms("GET", "/api/v1/transactions/{id}", got);
    expect(got.body.data).toMatchObject({
      status: "paid",
      refundedAmount: 0,
      pendingRefundAmount: 0,
      refunds: [{ id: failed.id, amount: 1_000, status: "failed", reason: body.data.reason }],
    });
    const hooks = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: acc.secretKey });
    expect(hooks.body.data.filter((e: { type: string }) => e.type === "refund")).toEqual([expect.objectContaining({ id: event.id, status: "failed", body })]);
    const again = await refund(acc.secretKey, id, { amount: 4_000 });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ pendingRefundAmount: 4_000, refunds: [{ status: "failed" }, { status: "processing", amount: 4_000 }] });
  });

  it("a refusal by the PSP answers 422 and sends the `refund` failed webhook once", async () => {
    const acc = await pspConfiguredAccount("Loja devolução recusada", psp, pki, KEY);
    const { id } = await paidPixAtPsp(acc.secretKey, 3_000);
    psp.failNext(1, 400, "api");
    const r = await refund(acc.secretKey, id, { amount: 700 });
    expect(r.status, r.text).toBe(422);
    await reconcileApiPix({ now: later(10) });
    const events = await refundEventsOf(id);
    expect(events).toHaveLength(1);
    expect(notificationBody(events[0])).toMatchObject({ type: "refund", data: { status: "failed", amount: 700, transaction: { status: "paid", pendingRefundAmount: 0 } } });
    expect((notificationBody(events[0]).data as { reason: string }).reason).toMatch(/PSP recusou a devolução/);
  });

  it("a charge made through /v1 gets the notification in the family's shape", async () => {
    const acc = await pspConfiguredAccount("Loja devolução v1", psp, pki, KEY);
    const { id, e2eid } = await paidPixAtPsp(acc.secretKey, 4_000, "/v1");
    const asked = await refund(acc.secretKey, id, { amount: 400 }, "/v1");
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toMatchObject({ id, status: "paid", pendingRefundAmount: 400, refunds: [{ amount: 400, status: "processing" }] });
    const [open] = await refundRows(id);
    psp.settleDevolucao(e2eid, open.devolucaoId, "NAO_REALIZADO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    const [event] = await refundEventsOf(id);
    expect(event).toMatchObject({ status: "failed", dialect: "v1" });
    const body = notificationBody(event);
    expect(body).toMatchObject({ type: "refund", objectId: String(open.id), data: { id: open.id, status: "failed", reason: "Devolução não realizada pelo PSP.", transactionId: id, transaction: { id, status: "paid", pendingRefundAmount: 0 } } });
    expect(validateAgainst(doc, doc.webhooks.refund_v1.post.requestBody.content["application/json"].schema, body)).toEqual([]);
  });
});

describe("any other transaction reads as before", () => {
  const CONTRACT_FIELDS = [
    "id",
    "status",
    "amount",
    "companyId",
    "installments",
    "paidAmount",
    "refundedAmount",
    "paymentMethod",
    "metadata",
    "acquirerType",
    "secureId",
    "secureUrl",
    "externalId",
    "customer",
    "shipping",
    "traceable",
    "fee",
    "paidAt",
    "createdAt",
  ];

  it("no refunds field and no read of psp_refunds, for a sandbox PIX (refunded in part), a boleto and a card, alone or in a list", async () => {
    const acc = await createTestAccount("Loja sandbox");
    const pix = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ postbackUrl: HOOK }) });
    expect(pix.status, pix.text).toBe(201);
    expect((await call("PUT", `/api/v1/transactions/${pix.body.data.id}/test`, { auth: acc.secretKey, body: { status: "paid" } })).status).toBe(200);
    const refunded = await refund(acc.secretKey, pix.body.data.id, { amount: 100 });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.data).toMatchObject({ refundedAmount: 100 });
    expect(Object.keys(refunded.body.data).sort()).toEqual([...CONTRACT_FIELDS, "pix"].sort());
    const boleto = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: boletoBody() });
    const card = await createCard(acc);

    // With psp_refunds out of reach, reading these still works: nothing of theirs queries it.
    const db = getDb();
    await db.execute(sql`alter table psp_refunds rename to psp_refunds_out_of_reach`);
    try {
      for (const [id, extra] of [
        [pix.body.data.id, ["pix"]],
        [boleto.body.data.id, []],
        [card.id, []],
      ] as const) {
        const r = await read(acc.secretKey, id);
        expect(r.status, r.text).toBe(200);
        expect(Object.keys(r.body.data).sort()).toEqual([...CONTRACT_FIELDS, ...extra].sort());
        const v1 = await read(acc.secretKey, id, "/v1");
        expect(v1.status, v1.text).toBe(200);
        expect(v1.body).not.toHaveProperty("refunds");
        expect(v1.body).not.toHaveProperty("pendingRefundAmount");
      }
      const list = await call("GET", "/api/v1/transactions?limit=10", { auth: acc.secretKey });
      expect(list.status, list.text).toBe(200);
      expect(list.body.data.data).toHaveLength(3);
      for (const t of list.body.data.data) expect(t).not.toHaveProperty("refunds");
      // The events of those transactions carry no refund field either.
      for (const e of await eventsOf(pix.body.data.id)) expect(notificationBody(e).data).not.toHaveProperty("refunds");
    } finally {
      await db.execute(sql`alter table psp_refunds_out_of_reach rename to psp_refunds`);
    }
  });

  it("pspRefundsOf asks the database only for paid PIX received through the PSP, once for a whole page", async () => {
    const acc = await pspConfiguredAccount("Loja página mista", psp, pki, KEY);
    const a = await paidPixAtPsp(acc.secretKey, 2_000);
    const b = await paidPixAtPsp(acc.secretKey, 2_500);
    expect((await refund(acc.secretKey, b.id, { amount: 300 })).status).toBe(200);
    const unpaid = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody() });
    const boleto = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: boletoBody() });
    const rows = await getDb()
      .select()
      .from(transactions)
      .where(eq(transactions.companyId, acc.companyId))
      .orderBy(desc(transactions.id));
    expect(rows.map((t) => t.id)).toEqual(expect.arrayContaining([a.id, b.id, unpaid.body.data.id, boleto.body.data.id]));

    let queries = 0;
    const counting = new Proxy(getDb(), {
      get(target, prop, receiver) {
        if (prop === "select") queries++;
        return Reflect.get(target, prop, receiver);
      },
    }) as Queryable;
    const none = await pspRefundsOf(rows.filter((t) => t.id === unpaid.body.data.id || t.id === boleto.body.data.id), counting);
    expect(queries).toBe(0);
    expect(none.size).toBe(0);
    const page = await pspRefundsOf(rows, counting);
    expect(queries).toBe(1);
    expect(page.get(a.id)).toEqual([]);
    expect(page.get(b.id)!.map((r) => r.amount)).toEqual([300]);
    expect(page.has(unpaid.body.data.id)).toBe(false);
    // The unpaid PIX at the PSP still shows the fields, from its row alone.
    expect((await read(acc.secretKey, unpaid.body.data.id)).body.data).toMatchObject({ refunds: [], pendingRefundAmount: 0 });
  });
});
