/**
 * Money that sits at the merchant's own PSP (API Pix), against the local PSP (real mutual TLS):
 *
 * - a payment link paid twice by PIX: the second payment is never booked as returned before the PSP
 *   returned it; a devolução is asked of the PSP, its amount held, and the charge stays `paid`
 *   (flagged as the duplicate) until the PSP says DEVOLVIDO; if the PSP does not make it, it stays
 *   paid, the hold is released, and the merchant can refund it;
 * - a refund requested at the PSP is held in the ledger (availableAtPsp → reserved: the money is at the
 *   merchant's PSP, never in what Arara holds) from the request on,
 *   so no other debit can spend it and the booking at DEVOLVIDO is covered;
 * - a refund opened before refunds were held (reserved = false) is still booked from availableAtPsp.
 *
 * ledger:check passes after every step that moves money.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/app";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { pixBody } from "../helpers/flows";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb } from "@/lib/db/client";
import { companies, ledgerJournals, pspCharges, pspRefunds, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { clientFor, closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { buildDevolucaoRequest } from "@/lib/processors/api-pix/helpers";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { systemContext } from "@/lib/services/context";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { getTransactionDetail } from "@/lib/services/transactions/transaction-detail";

const KEY = "recebimentos@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  // The webhook registered at the PSP points nowhere reachable: these tests deliver nothing and let
  // the reconciliation find what the PSP did (as when notifications are lost).
  const { getEnv } = await import("@/lib/env");
  (getEnv() as { baseUrl: string }).baseUrl = "http://127.0.0.1:9";
});

afterEach(async () => {
  expect(psp.internalErrors).toEqual([]);
  const ledger = await checkLedger(getDb());
  expect(ledger.violations).toEqual([]);
});

afterAll(async () => {
  closeApiPixClients();
  await psp?.close();
});

const configuredAccount = (name: string) => pspConfiguredAccount(name, psp, pki, KEY);

const txidOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].txid;
const txRow = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];
const refundsOf = (id: number) => getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id)).orderBy(asc(pspRefunds.id));
const refundedEvents = (id: number) =>
  getDb().select().from(webhookEvents).where(and(eq(webhookEvents.transactionId, id), eq(webhookEvents.status, "refunded")));
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

async function balance(secretKey: string): Promise<{ available: number; availableAtPsp: number; reserved: number }> {
  const r = await call("GET", "/api/v1/balance", { auth: secretKey });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

async function paidPixAtPsp(secretKey: string, amount: number) {
  const r = await call("POST", "/api/v1/transactions", {
    auth: secretKey,
    body: pixBody({ amount, items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }], postbackUrl: "http://127.0.0.1:9/hook" }),
  });
  expect(r.status, r.text).toBe(201);
  expect(r.body.data.acquirerType).toBe("api-pix");
  const pix = await psp.pay(await txidOf(r.body.data.id), { notify: "drop" });
  await reconcileApiPix({ now: later(5) });
  const t = await txRow(r.body.data.id);
  expect(t.status).toBe("paid");
  return { t, pix };
}

const refund = (secretKey: string, id: number, body: Record<string, unknown> = {}) =>
  call("POST", `/api/v1/transactions/${id}/refund`, { auth: secretKey, body, headers: { "idempotency-key": `refund-${id}-${Math.random()}` } });

describe("a payment link paid twice through the merchant's PSP", () => {
  async function linkPaidTwice(name: string) {
    const acc = await configuredAccount(name);
    const created = await call("POST", "/api/v1/checkouts", {
      auth: acc.secretKey,
      body: { items: [{ title: "Curso", unitPrice: 15_000, quantity: 1 }], methods: ["pix"], postbackUrl: "http://127.0.0.1:9/link-hook" },
    });
    expect(created.status, created.text).toBe(201);
    const link = created.body.data as { id: number; secureId: string };
    const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
    // Two people ask for a PIX: two charges, two cobs at the PSP, and both pay.
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const who = { ...payer, email: `maria${i}@example.com` };
      const r = await call("POST", `/checkout/${link.secureId}/pay`, { body: { method: "pix", payer: who }, headers: { "content-type": "application/json" } });
      expect(r.status, r.text).toBe(201);
      const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, r.body.data.secureId));
      ids.push(row.id);
    }
    expect(new Set(ids).size).toBe(2);
    const paid = [];
    for (const id of ids) paid.push(await psp.pay(await txidOf(id), { notify: "drop" }));
    await reconcileApiPix({ now: later(5) });

    const rows = await Promise.all(ids.map(txRow));
    const first = rows.find((t) => t.duplicateOfId === null)!;
    const dup = rows.find((t) => t.duplicateOfId !== null)!;
    expect(first).toBeDefined();
    expect(dup).toBeDefined();
    expect(dup.duplicateOfId).toBe(first.id);
    const dupPix = paid[ids.indexOf(dup.id)];
    return { acc, link, first, dup, dupPix };
  }

  it("the second payment stays paid, flagged, while the PSP is asked to return it; refunded only at DEVOLVIDO", async () => {
    const { acc, link, first, dup, dupPix } = await linkPaidTwice("Loja link duplo");
    // Not called returned: still paid, a devolução asked of the PSP and its amount held.
    expect(first.status).toBe("paid");
    expect(dup.status).toBe("paid");
    expect(dup.refundedAmount).toBe(0);
    expect(dup.feeEstimated).toBe(0);
    expect(await refundedEvents(dup.id)).toHaveLength(0);
    const [open] = await refundsOf(dup.id);
    expect(open).toMatchObject({ status: "processing", amount: 15_000, reserved: true, e2eid: dupPix.endToEndId });
    const atPsp = psp.pix.get(dupPix.endToEndId)!.devolucoes;
    expect(atPsp).toHaveLength(1);
    expect(atPsp[0]).toMatchObject({ id: open.devolucaoId, valor: "150.00", status: "EM_PROCESSAMENTO" });
    const held = await balance(acc.secretKey);
    expect(held.reserved).toBe(15_000);
    expect(held.availableAtPsp).toBe(first.paidAmount - first.feeEstimated);

    // The payer's page and the timeline say what is true.
    const page = await getCheckoutPageData(link.secureId);
    expect(page?.kind === "link" && page.link.returned).toEqual([expect.objectContaining({ paymentMethod: "pix", amount: 15_000, returned: false })]);
    const causes = (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, dup.id))).map((e) => e.cause);
    expect(causes).toContain("psp_refund_requested");
    expect(causes).not.toContain("duplicate_payment_refund");

    // Nothing more can be refunded while the devolução is open.
    expect((await refund(acc.secretKey, dup.id)).status).toBe(422);

    psp.settleDevolucao(dupPix.endToEndId, open.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    const after = await txRow(dup.id);
    expect(after.status).toBe("refunded");
    expect(after.refundedAmount).toBe(15_000);
    expect(await refundedEvents(dup.id)).toHaveLength(1);
    expect((await refundsOf(dup.id))[0].status).toBe("done");
    const settled = await balance(acc.secretKey);
    expect(settled).toMatchObject({ reserved: 0, availableAtPsp: first.paidAmount - first.feeEstimated, available: 0 });
    const pageAfter = await getCheckoutPageData(link.secureId);
    expect(pageAfter?.kind === "link" && pageAfter.link.returned).toEqual([expect.objectContaining({ returned: true })]);
    expect((await txRow(first.id)).status).toBe("paid");
  });

  it("a devolução the PSP does not make: the duplicate stays paid, the hold is released, and the merchant can refund it", async () => {
    const { acc, first, dup, dupPix } = await linkPaidTwice("Loja link duplo recusado");
    const [open] = await refundsOf(dup.id);
    psp.settleDevolucao(dupPix.endToEndId, open.devolucaoId, "NAO_REALIZADO", "Conta do pagador encerrada");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    const t = await txRow(dup.id);
    expect(t).toMatchObject({ status: "paid", refundedAmount: 0, duplicateOfId: first.id });
    expect((await refundsOf(dup.id))[0].status).toBe("failed");
    expect(await refundedEvents(dup.id)).toHaveLength(0);
    const released = await balance(acc.secretKey);
    expect(released).toMatchObject({ reserved: 0, availableAtPsp: first.paidAmount - first.feeEstimated + 15_000 });

    const r = await refund(acc.secretKey, dup.id);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.status).toBe("paid");
    const refunds = await refundsOf(dup.id);
    expect(refunds).toHaveLength(2);
    expect(refunds[1]).toMatchObject({ status: "processing", amount: 15_000, reserved: true });
  });
});

describe("a refund at the PSP is held against the balance", () => {
  it("another refund cannot spend what an open PSP refund holds, and DEVOLVIDO is booked", async () => {
    const acc = await configuredAccount("Loja reembolso retido");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const { t: other } = await paidPixAtPsp(acc.secretKey, 10_000);
    const start = await balance(acc.secretKey);
    expect(start.available).toBe(0); // all of it is at the merchant's PSP
    expect(start.availableAtPsp).toBeGreaterThanOrEqual(10_000);
    expect(start.availableAtPsp - 5_000).toBeLessThan(10_000);

    const r1 = await refund(acc.secretKey, pix.id);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.data.status).toBe("paid");
    const [open] = await refundsOf(pix.id);
    expect(open).toMatchObject({ status: "processing", reserved: true, amount: 5_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 5_000, reserved: 5_000 });
    // The hold is a refund journal of the transaction, written with the psp_refunds row.
    expect((await getDb().select().from(ledgerJournals).where(and(eq(ledgerJournals.transactionId, pix.id), eq(ledgerJournals.kind, "refund")))).length).toBe(1);

    // The other PIX's full refund would need money the open PSP refund holds.
    const r2 = await refund(acc.secretKey, other.id);
    expect(r2.status, r2.text).toBe(422);
    expect(r2.body).toMatchObject({ success: false, code: "insufficient_balance" });
    expect((await txRow(other.id)).status).toBe("paid");
    expect(await refundsOf(other.id)).toEqual([]);

    psp.settleDevolucao(paid.endToEndId, open.devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    expect(await txRow(pix.id)).toMatchObject({ status: "refunded", refundedAmount: 5_000 });
    expect((await refundsOf(pix.id))[0].status).toBe("done");
    expect(await refundedEvents(pix.id)).toHaveLength(1);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 5_000, reserved: 0 });
  });

  it("a partial PSP refund the PSP does not make returns what it held to available", async () => {
    const acc = await configuredAccount("Loja reembolso parcial");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const start = await balance(acc.secretKey);
    expect((await refund(acc.secretKey, pix.id, { amount: 1_200 })).status).toBe(200);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 1_200, reserved: 1_200 });
    // The dashboard shows it in progress, and offers only the rest.
    const ctx = systemContext((await getDb().select().from(companies).where(eq(companies.id, acc.companyId)))[0]);
    expect(await getTransactionDetail(ctx, pix.id)).toMatchObject({ refundsAtPsp: true, refundingAtPsp: 1_200, refundable: 3_800, pspRefundFailed: null });
    const [open] = await refundsOf(pix.id);
    psp.settleDevolucao(paid.endToEndId, open.devolucaoId, "NAO_REALIZADO", "Conta do pagador encerrada");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    expect((await refundsOf(pix.id))[0].status).toBe("failed");
    // ... and, once the PSP did not make it, says so, with the whole amount refundable again.
    const after = await getTransactionDetail(ctx, pix.id);
    expect(after).toMatchObject({ refundingAtPsp: 0, refundable: 5_000, pspRefundFailed: { amount: 1_200 } });
    expect(after.pspRefundFailed!.reason).toContain("Conta do pagador encerrada");
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp, reserved: 0 });
    expect(await txRow(pix.id)).toMatchObject({ status: "paid", refundedAmount: 0 });
  });

  it("two PSP refunds at once for different transactions: only what the balance covers is held", async () => {
    const acc = await configuredAccount("Loja reembolsos concorrentes");
    const a = (await paidPixAtPsp(acc.secretKey, 5_000)).t;
    const b = (await paidPixAtPsp(acc.secretKey, 5_000)).t;
    const start = await balance(acc.secretKey);
    expect(start.availableAtPsp).toBeLessThan(10_000); // the fees: both together are not covered
    const results = await Promise.all([refund(acc.secretKey, a.id), refund(acc.secretKey, b.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)!.body).toMatchObject({ code: "insufficient_balance" });
    expect((await refundsOf(a.id)).length + (await refundsOf(b.id)).length).toBe(1);
    const end = await balance(acc.secretKey);
    expect(end).toMatchObject({ availableAtPsp: start.availableAtPsp - 5_000, reserved: 5_000 });
    expect(end.availableAtPsp).toBeGreaterThanOrEqual(0);
  });

  it("a refund opened before refunds were held (reserved = false) is booked from available at DEVOLVIDO", async () => {
    const acc = await configuredAccount("Loja reembolso antigo");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    await paidPixAtPsp(acc.secretKey, 5_000); // a full refund gives back the fee too: another sale covers it
    const start = await balance(acc.secretKey);
    // As a database migrated with a refund open: the devolução asked at the PSP, nothing held.
    const devolucaoId = "Alegacy0000000000000000000000001";
    await clientFor((await pspConfigOf(acc.companyId))!).requestDevolucao(paid.endToEndId, devolucaoId, buildDevolucaoRequest({ amount: 5_000 }));
    await getDb().insert(pspRefunds).values({
      companyId: acc.companyId,
      transactionId: pix.id,
      e2eid: paid.endToEndId,
      devolucaoId,
      amount: 5_000,
      status: "processing",
      nextCheckAt: new Date(),
    });
    expect((await refundsOf(pix.id))[0].reserved).toBe(false);
    psp.settleDevolucao(paid.endToEndId, devolucaoId, "DEVOLVIDO");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later(10) });
    expect(await txRow(pix.id)).toMatchObject({ status: "refunded", refundedAmount: 5_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 5_000, reserved: 0 });
  });
});

describe("the PSP is asked for a refund only once the refund has committed", () => {
  const devolucaoPuts = (e2eid: string) => psp.requests.filter((r) => r.method === "PUT" && r.path.includes(`/pix/${e2eid}/devolucao/`));
  const accountRow = async (companyId: number) => (await getDb().select().from(companies).where(eq(companies.id, companyId)))[0];

  it("a transaction rolled back around the refund asked nothing of the PSP; the retry with a key asks once", async () => {
    const acc = await configuredAccount("Loja reembolso desfeito");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const start = await balance(acc.secretKey);
    const ctx = systemContext(await accountRow(acc.companyId));
    // A caller's transaction (as the Idempotency-Key's) that fails after the refund was opened in it.
    const rolledBack = getDb().transaction(async (tx) => {
      await refundThroughProcessor(ctx, pix.id, { amount: 700 }, tx);
      const [opened] = await tx.select().from(pspRefunds).where(eq(pspRefunds.transactionId, pix.id));
      expect(opened).toMatchObject({ status: "requested", amount: 700, reserved: true });
      throw new Error("the caller's transaction fails after the refund was opened");
    });
    await expect(rolledBack).rejects.toThrow(/caller's transaction fails/);
    // Nothing of it is left, and the PSP was never asked: no devolução the payer could get twice.
    expect(await refundsOf(pix.id)).toEqual([]);
    expect(devolucaoPuts(paid.endToEndId)).toEqual([]);
    expect(psp.pix.get(paid.endToEndId)!.devolucoes).toEqual([]);
    expect(await balance(acc.secretKey)).toMatchObject(start);

    const headers = { "idempotency-key": `undone-${pix.id}` };
    const first = await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth: acc.secretKey, body: { amount: 700 }, headers });
    expect(first.status, first.text).toBe(200);
    const again = await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth: acc.secretKey, body: { amount: 700 }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(psp.pix.get(paid.endToEndId)!.devolucoes.map((d) => d.valor)).toEqual(["7.00"]);
    expect(await refundsOf(pix.id)).toHaveLength(1);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 700, reserved: 700 });
  });

  it("while the PSP is being asked, the refund and its hold are committed and no row lock is held", async () => {
    const acc = await configuredAccount("Loja reembolso sem trava");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const start = await balance(acc.secretKey);
    psp.hangNext(1, "api");
    let answered = false;
    const pending = call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth: acc.secretKey, body: { amount: 900 }, headers: { "idempotency-key": `hang-${pix.id}` } });
    void pending.then(() => (answered = true));
    await vi.waitFor(() => expect(devolucaoPuts(paid.endToEndId)).toHaveLength(1), { timeout: 30_000, interval: 20 });

    // Read and locked from another connection while the PSP holds the request.
    const seen = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      const [t] = await tx.select().from(transactions).where(eq(transactions.id, pix.id)).for("update");
      const [held] = await tx.select().from(pspRefunds).where(eq(pspRefunds.transactionId, pix.id)).for("update");
      const [company] = await tx.select().from(companies).where(eq(companies.id, acc.companyId)).for("update");
      return { t, held, company };
    });
    // Let the local PSP see any connection its client closed meanwhile (I/O is read between macrotasks).
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(psp.hungRequests()).toBe(1);
    expect(answered).toBe(false);
    expect(seen.t.status).toBe("paid");
    expect(seen.held).toMatchObject({ status: "requested", amount: 900, reserved: true });
    expect(seen.company).toBeDefined();

    psp.releaseHung();
    const r = await pending;
    // The cut-off request is asked again with the same devolution id (by the client, or else by the
    // reconciliation): one devolução at the PSP, and the answer is the transaction still paid.
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.status).toBe("paid");
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 900, reserved: 900 });
    const [open] = await refundsOf(pix.id);
    expect(["requested", "processing"]).toContain(open.status);
    await reconcileApiPix({ now: later(10) });
    expect((await refundsOf(pix.id))[0].status).toBe("processing");
    expect(psp.pix.get(paid.endToEndId)!.devolucoes.map((d) => d.id)).toEqual([open.devolucaoId]);
  });

  it("a refusal by the PSP after the commit: a 422, nothing held, and the key replays the 422", async () => {
    const acc = await configuredAccount("Loja reembolso recusado");
    const { t: pix, pix: paid } = await paidPixAtPsp(acc.secretKey, 5_000);
    const start = await balance(acc.secretKey);
    psp.failNext(1, 400, "api");
    const headers = { "idempotency-key": `refused-${pix.id}` };
    const r = await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 }, headers });
    expect(r.status, r.text).toBe(422);
    expect(r.body).toMatchObject({ success: false, code: "unprocessable" });
    expect(r.body.message).toMatch(/PSP recusou a devolução/);
    const [failed] = await refundsOf(pix.id);
    expect(failed).toMatchObject({ status: "failed", amount: 1_000 });
    expect(await balance(acc.secretKey)).toMatchObject(start);
    expect(psp.pix.get(paid.endToEndId)!.devolucoes).toEqual([]);
    const timelineCauses = (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, pix.id))).map((e) => e.cause);
    expect(timelineCauses).toEqual(expect.arrayContaining(["psp_refund_requested", "psp_refund_failed"]));

    const again = await call("POST", `/api/v1/transactions/${pix.id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 }, headers });
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(r.text);
    expect(await refundsOf(pix.id)).toHaveLength(1);
    // A new request (another key) may ask again.
    const retry = await refund(acc.secretKey, pix.id, { amount: 1_000 });
    expect(retry.status, retry.text).toBe(200);
    expect(psp.pix.get(paid.endToEndId)!.devolucoes).toHaveLength(1);
  });
});
