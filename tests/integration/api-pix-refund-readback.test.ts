/**
 * A refund at the merchant's PSP (API Pix) is only given up when the PSP says it has no such devolução,
 * and is booked for what the PSP says it returned. Against the local PSP (real mutual TLS):
 *
 * - the answer to a refund request is lost (a 503 from the PSP's gateway after its backend made the
 *   devolução); the reconciliation asks again with the same id and the PSP refuses the repeat (409,
 *   404): the refund is read back by its id and followed, never closed as failed with its hold
 *   released, so the merchant is never told "failed" for money the payer got back (and cannot refund
 *   it a second time);
 * - a refusal the PSP cannot be asked about (the read-back refused too) keeps the refund open, its
 *   amount held, and the API answers it in progress;
 * - a devolução DEVOLVIDO for less than was asked books the PSP's amount and releases the rest.
 *
 * ledger:check passes after every test.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { pixBody } from "../helpers/flows";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb } from "@/lib/db/client";
import { pspCharges, pspRefunds, transactions } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { clientFor, closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { buildDevolucaoRequest } from "@/lib/processors/api-pix/helpers";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";

const KEY = "devolucoes@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  // Notifications go nowhere: the reconciliation finds what the PSP did.
  const { getEnv } = await import("@/lib/env");
  (getEnv() as { baseUrl: string }).baseUrl = "http://127.0.0.1:9";
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
const txRow = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];
const refundsOf = (id: number) => getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id)).orderBy(asc(pspRefunds.id));
const refund = (secretKey: string, id: number, body: Record<string, unknown>) =>
  call("POST", `/api/v1/transactions/${id}/refund`, { auth: secretKey, body, headers: { "idempotency-key": `refund-${id}-${Math.random()}` } });

async function balance(secretKey: string): Promise<{ available: number; availableAtPsp: number; reserved: number }> {
  const r = await call("GET", "/api/v1/balance", { auth: secretKey });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

async function paidPixAtPsp(secretKey: string, amount: number) {
  const r = await call("POST", "/api/v1/transactions", {
    auth: secretKey,
    body: pixBody({ amount, items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }] }),
  });
  expect(r.status, r.text).toBe(201);
  const pix = await psp.pay(await txidOf(r.body.data.id), { notify: "drop" });
  await reconcileApiPix({ now: later(5) });
  expect((await txRow(r.body.data.id)).status).toBe("paid");
  return { id: r.body.data.id as number, e2eid: pix.endToEndId };
}

/** What the PSP returned to the payer of one Pix, in centavos. */
const returnedAtPsp = (e2eid: string) =>
  psp.pix.get(e2eid)!.devolucoes.filter((d) => d.status === "DEVOLVIDO").reduce((s, d) => s + Math.round(Number(d.valor) * 100), 0);

describe("a refund whose request's answer was lost", () => {
  it.each([409, 404])("a repeat the PSP refuses with %i is read back by its id and followed: the payer is refunded once", async (refusal) => {
    const acc = await pspConfiguredAccount(`Loja resposta perdida ${refusal}`, psp, pki, KEY);
    const { id, e2eid } = await paidPixAtPsp(acc.secretKey, 10_000);
    await paidPixAtPsp(acc.secretKey, 50_000); // other money at the PSP, so the fee never blocks a refund
    const start = await balance(acc.secretKey);

    // The request's answer is lost: the refund stays requested, its amount held.
    psp.failNext(1, 503, "api");
    const r1 = await refund(acc.secretKey, id, { amount: 5_000 });
    expect(r1.status, r1.text).toBe(200);
    const [first] = await refundsOf(id);
    expect(first).toMatchObject({ status: "requested", amount: 5_000, reserved: true });
    // ... but the PSP made the devolução (the lost request, with Arara's id).
    const config = await pspConfigOf(acc.companyId);
    await clientFor(config!).requestDevolucao(e2eid, first.devolucaoId, buildDevolucaoRequest({ amount: 5_000 }));

    // The reconciliation asks again with the same id, and the PSP refuses the repeat.
    psp.failNext(1, refusal, "api");
    await reconcileApiPix({ now: later(10) });
    expect((await refundsOf(id))[0]).toMatchObject({ status: "processing", amount: 5_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 5_000, reserved: 5_000 });

    psp.settleDevolucao(e2eid, first.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(15) });
    expect((await refundsOf(id))[0].status).toBe("done");
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 5_000 });

    // Only the rest can be refunded: never the same R$ 50,00 twice.
    const tooMuch = await refund(acc.secretKey, id, { amount: 5_001 });
    expect(tooMuch.status, tooMuch.text).toBe(422);
    const rest = await refund(acc.secretKey, id, { amount: 5_000 });
    expect(rest.status, rest.text).toBe(200);
    const second = (await refundsOf(id))[1];
    psp.settleDevolucao(e2eid, second.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(20) });
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(returnedAtPsp(e2eid)).toBe(10_000);
    expect((await refundsOf(id)).map((r) => r.status)).toEqual(["done", "done"]);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000, reserved: 0 });
  });

  it("a refusal the PSP cannot be asked about keeps the refund open and its amount held; a later pass goes on", async () => {
    const acc = await pspConfiguredAccount("Loja leitura recusada", psp, pki, KEY);
    const { id, e2eid } = await paidPixAtPsp(acc.secretKey, 10_000);
    const start = await balance(acc.secretKey);

    // The request and its read-back are both refused (a scope missing for a while, say).
    psp.failNext(2, 403, "api");
    const r = await refund(acc.secretKey, id, { amount: 4_000 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ status: "paid", pendingRefundAmount: 4_000 });
    expect((await refundsOf(id))[0]).toMatchObject({ status: "requested", amount: 4_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 4_000, reserved: 4_000 });

    await reconcileApiPix({ now: later(10) });
    const [open] = await refundsOf(id);
    expect(open.status).toBe("processing");
    psp.settleDevolucao(e2eid, open.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(15) });
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 4_000 });
    expect(returnedAtPsp(e2eid)).toBe(4_000);
  });
});

describe("a devolução the PSP returned for another amount", () => {
  it("DEVOLVIDO for less than asked books what the PSP returned and releases the rest of the hold", async () => {
    const acc = await pspConfiguredAccount("Loja devolução menor", psp, pki, KEY);
    const { id, e2eid } = await paidPixAtPsp(acc.secretKey, 10_000);
    const start = await balance(acc.secretKey);
    expect((await refund(acc.secretKey, id, { amount: 8_000 })).status).toBe(200);
    const [open] = await refundsOf(id);
    psp.pix.get(e2eid)!.devolucoes.find((d) => d.id === open.devolucaoId)!.valor = "30.00";
    psp.settleDevolucao(e2eid, open.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });

    expect((await refundsOf(id))[0]).toMatchObject({ status: "done", amount: 3_000 });
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 3_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 3_000, reserved: 0 });
    const shown = await call("GET", `/api/v1/transactions/${id}`, { auth: acc.secretKey });
    expect(shown.body.data).toMatchObject({ refundedAmount: 3_000, pendingRefundAmount: 0 });
    expect(shown.body.data.refunds).toMatchObject([{ amount: 3_000, status: "done" }]);
    // The payer's page: real money (the merchant's PSP), never shown as a test; the part returned said.
    const page = await getCheckoutPageData((await txRow(id)).secureId);
    expect(page?.kind === "transaction" && page.transaction).toMatchObject({ status: "paid", sandbox: false, refundedAmount: 3_000 });
  });
});
