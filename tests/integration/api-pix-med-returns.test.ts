/**
 * Returns the merchant's PSP makes by itself under Banco Central's MED (a devolução of natureza
 * MED_OPERACIONAL, MED_FRAUDE or MED_PIX_AUTOMATICO listed on the Pix, never asked by Arara) are booked
 * once, as refunds made by the PSP: from availableAtPsp, through the refund's own booking (journal,
 * refundedAmount, the move to `refunded` or a partial refund, the `refund` notification), with a
 * timeline entry `psp_med_return`. Against the local PSP (real mutual TLS):
 *
 * - a full return seen by the PSP's notification: refunded, availableAtPsp down by it, one notification;
 * - a partial return seen by the charge's re-read (`GET /cob`) and by the `GET /pix` scan: stays paid;
 * - the same return seen by the notification and the reconciliation at once: booked once;
 * - a return EM_PROCESSAMENTO: nothing booked until the PSP says DEVOLVIDO (read again by the
 *   reconciliation), then once; NAO_REALIZADO: nothing;
 * - a return on a charge already refunded in full: nothing more is booked (never more than paid);
 * - a return availableAtPsp does not cover: nothing forced past the ledger's rule, recorded on the
 *   timeline and logged as needing attention, and booked once the balance covers it;
 * - a devolução the merchant made in the PSP's own app (natureza ORIGINAL, or none given) is money gone
 *   from the PSP account too: booked the same way, named on the timeline as made outside Arara.
 *
 * ledger:check passes after every test.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { captureLogLines } from "../helpers/logs";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { pixBody } from "../helpers/flows";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, pspCharges, pspRefunds, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { clientFor, closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { applyMedReturns } from "@/lib/services/psp/api-pix-refunds";
import { handleApiPixWebhook } from "@/lib/services/psp/api-pix-webhook";
import { syncCharge } from "@/lib/services/psp/api-pix-sync";
import { companies } from "@/lib/db/schema";
import { getTransactionDetail } from "@/lib/services/transactions/transaction-detail";
import { TimelineCard } from "@/components/dashboard/transaction/TimelineCard";

const KEY = "med@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  // The PSP's notifications are handed to the handler by the tests themselves.
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

let minutes = 0;
/** A clock that only moves forward across the file (each reconciliation is due). */
const later = (step = 5) => new Date(Date.now() + (minutes += step) * 60_000);
const txidOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].txid;
const txRow = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];
const refundsOf = (id: number) => getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id)).orderBy(asc(pspRefunds.id));
const eventsOf = (id: number) => getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id)).orderBy(asc(webhookEvents.id));
const causesOf = async (id: number) =>
  (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id)).orderBy(asc(transactionStatusChanges.id))).map((c) => ({
    cause: c.cause,
    amount: c.amount,
    to: c.toStatus,
  }));

async function balance(secretKey: string): Promise<{ available: number; availableAtPsp: number; reserved: number }> {
  const r = await call("GET", "/api/v1/balance", { auth: secretKey });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

async function paidPix(secretKey: string, amount: number) {
  const r = await call("POST", "/api/v1/transactions", {
    auth: secretKey,
    body: pixBody({ amount, postbackUrl: "https://loja.example/webhooks", items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }] }),
  });
  expect(r.status, r.text).toBe(201);
  const pix = await psp.pay(await txidOf(r.body.data.id), { notify: "drop" });
  await reconcileApiPix({ now: later() });
  expect((await txRow(r.body.data.id)).status).toBe("paid");
  return { id: r.body.data.id as number, e2eid: pix.endToEndId };
}

/** The PSP's notification of one Pix, handed to Arara's handler (the stand-in's own is dropped). */
async function notify(companyId: number, e2eid: string, txid?: string, now = later(1)) {
  psp.dropWebhooks();
  const config = await pspConfigOf(companyId);
  return handleApiPixWebhook(config!.webhookToken, { pix: [{ endToEndId: e2eid, ...(txid ? { txid } : {}) }] }, now);
}

/** An account with a paid PIX of `amount` and other money at the PSP (the fee is kept on refunds). */
async function setup(name: string, amount = 10_000) {
  const acc = await pspConfiguredAccount(name, psp, pki, KEY);
  const charge = await paidPix(acc.secretKey, amount);
  await paidPix(acc.secretKey, 50_000);
  return { acc, ...charge, start: await balance(acc.secretKey) };
}

describe("a MED return the PSP made by itself", () => {
  it("in full, seen by the PSP's notification: refunded once from availableAtPsp, one notification, psp_med_return on the timeline", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED total");
    const eventsBefore = (await eventsOf(id)).length;
    const med = psp.medReturn(e2eid, { natureza: "MED_FRAUDE", motivo: "Fraude reconhecida pelo PSP do pagador" });

    await notify(acc.companyId, e2eid);

    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000, reserved: 0, available: start.available });
    const [row] = await refundsOf(id);
    expect(row).toMatchObject({ initiatedBy: "psp", natureza: "MED_FRAUDE", motivo: "Fraude reconhecida pelo PSP do pagador", devolucaoId: med.id, amount: 10_000, status: "done", reserved: false, rtrId: med.rtrId });
    const causes = await causesOf(id);
    expect(causes.filter((c) => c.cause === "psp_med_return")).toEqual([{ cause: "psp_med_return", amount: 10_000, to: "paid" }]);
    expect(causes.at(-1)).toEqual({ cause: "refund", amount: 10_000, to: "refunded" });
    const events = (await eventsOf(id)).slice(eventsBefore);
    expect(events.map((e) => [e.type, e.status])).toEqual([
      ["transaction", "refunded"],
      ["refund", "done"],
    ]);

    // Seen again (the notification, the charge's re-read, the reconciliation): nothing more.
    await notify(acc.companyId, e2eid, await txidOf(id));
    await reconcileApiPix({ now: later() });
    expect(await refundsOf(id)).toHaveLength(1);
    expect((await eventsOf(id)).length).toBe(eventsBefore + 2);
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000 });
    // The API shows it among the transaction's refunds.
    const read = await call("GET", `/api/v1/transactions/${id}`, { auth: acc.secretKey });
    expect(read.body.data).toMatchObject({ status: "refunded", refundedAmount: 10_000, pendingRefundAmount: 0, refunds: [{ amount: 10_000, status: "done" }] });
  });

  it("its natureza and motivo are shown: on the dashboard's timeline and in the API's refunds; the PSP's free text made one line, capped, never markup", async () => {
    const { acc, id, e2eid } = await setup("Loja MED motivo");
    // The PSP's words are untrusted: markup, a line break, a direction override, and far more than the spec's 140.
    const motivo = `Golpe <img src=x onerror=alert(1)>\ndo falso\u202Evendedor ${"x".repeat(300)}`;
    psp.medReturn(e2eid, { natureza: "MED_FRAUDE", motivo, amount: 4_000 });
    await notify(acc.companyId, e2eid);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 4_000 });

    const [row] = await refundsOf(id);
    expect(row.motivo!.startsWith("Golpe <img src=x onerror=alert(1)> do falso vendedor xxx")).toBe(true);
    expect([...row.motivo!]).toHaveLength(140);
    expect(row.motivo!.endsWith("…")).toBe(true);

    // The API: the refund says it came from the PSP, with the natureza and the motivo.
    const r = await call("GET", `/api/v1/transactions/${id}`, { auth: acc.secretKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.refunds).toEqual([expect.objectContaining({ origin: "psp", natureza: "MED_FRAUDE", motivo: row.motivo, status: "done", amount: 4_000 })]);

    // The dashboard: the timeline entry names the natureza in Portuguese and quotes the motivo, escaped.
    const [account] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    const detail = await getTransactionDetail({ account, now: new Date() }, id);
    const entry = detail.timeline.find((e) => e.cause === "psp_med_return")!;
    expect(entry.pspReturn).toEqual({ natureza: "MED_FRAUDE", motivo: row.motivo });
    expect(detail.timeline.filter((e) => e.cause !== "psp_med_return").every((e) => e.pspReturn === null)).toBe(true);
    const html = renderToStaticMarkup(createElement(TimelineCard, { timeline: detail.timeline }));
    expect(html).toContain("Devolução feita pelo PSP (MED: fraude): reembolso registrado — motivo: “Golpe &lt;img src=x onerror=alert(1)&gt; do falso vendedor");
    expect(html).not.toContain("<img");
  });

  it("a refund the merchant asked shows origin merchant and natureza ORIGINAL in the API", async () => {
    const { acc, id } = await setup("Loja MED origem");
    const r = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.refunds).toEqual([expect.objectContaining({ origin: "merchant", natureza: "ORIGINAL", motivo: null, amount: 1_000 })]);
  });

  it("a devolução made in the PSP's own app (natureza ORIGINAL, or none given) is booked as a return made at the PSP; Arara's own in the same list is not booked twice", async () => {
    const { acc, id, e2eid, start } = await setup("Loja devolução no app do banco");
    // Arara's own refund, asked of the PSP and made: listed on the Pix with natureza ORIGINAL too.
    const asked = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 } });
    expect(asked.status, asked.text).toBe(200);
    const [ours] = await refundsOf(id);
    psp.settleDevolucao(e2eid, ours.devolucaoId, "DEVOLVIDO");
    await notify(acc.companyId, e2eid, await txidOf(id));
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 1_000 });

    // The merchant returns R$ 20,00 in the bank's app, and a PSP that leaves natureza out returns R$ 5,00.
    const inApp = psp.medReturn(e2eid, { amount: 2_000, natureza: "ORIGINAL", motivo: "Devolvido pelo internet banking" });
    const unnamed = psp.medReturn(e2eid, { amount: 500, natureza: null });
    expect(unnamed.natureza).toBeUndefined();
    await notify(acc.companyId, e2eid, await txidOf(id));
    // Seen again by the charge's re-read and the scan: nothing more.
    await reconcileApiPix({ now: later() });

    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 3_500 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 3_500, reserved: 0 });
    expect(await refundsOf(id)).toMatchObject([
      { initiatedBy: "merchant", devolucaoId: ours.devolucaoId, amount: 1_000, status: "done" },
      { initiatedBy: "psp", devolucaoId: inApp.id, natureza: "ORIGINAL", amount: 2_000, status: "done" },
      { initiatedBy: "psp", devolucaoId: unnamed.id, natureza: null, amount: 500, status: "done" },
    ]);
    expect((await causesOf(id)).filter((c) => c.cause === "psp_med_return").map((c) => c.amount)).toEqual([2_000, 500]);
    const r = await call("GET", `/api/v1/transactions/${id}`, { auth: acc.secretKey });
    expect(r.body.data.refunds.map((x: { origin: string; natureza: string | null; amount: number }) => [x.origin, x.natureza, x.amount])).toEqual([
      ["merchant", "ORIGINAL", 1_000],
      ["psp", "ORIGINAL", 2_000],
      ["psp", null, 500],
    ]);

    // The timeline says where it was made, not MED.
    const [account] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    const detail = await getTransactionDetail({ account, now: new Date() }, id);
    const html = renderToStaticMarkup(createElement(TimelineCard, { timeline: detail.timeline }));
    expect(html).toContain("Devolução feita na sua conta do PSP, fora da Arara: reembolso registrado — motivo: “Devolvido pelo internet banking”");
    expect(html).not.toContain("MED");
  });

  it("Arara's own devolução listed under another id (its case changed, or the PSP's own id with the same rtrId) is never booked again", async () => {
    const { acc, id, e2eid, start } = await setup("Loja devolução renomeada");
    const asked = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 } });
    expect(asked.status, asked.text).toBe(200);
    const [ours] = await refundsOf(id);
    psp.settleDevolucao(e2eid, ours.devolucaoId, "DEVOLVIDO");
    await notify(acc.companyId, e2eid, await txidOf(id));
    const [settled] = await refundsOf(id);
    expect(settled).toMatchObject({ status: "done", rtrId: expect.stringMatching(/^D/) });
    const at = new Date().toISOString();
    const listedAs = (devId: string, rtrId?: string) => ({ id: devId, ...(rtrId ? { rtrId } : {}), valor: "10.00", natureza: "ORIGINAL", status: "DEVOLVIDO", horario: { solicitacao: at, liquidacao: at } });
    await applyMedReturns(acc.companyId, { endToEndId: e2eid, devolucoes: [listedAs(ours.devolucaoId.toUpperCase()), listedAs("PSP0000000000000000000000001", settled.rtrId!)] }, later(1));
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await txRow(id)).toMatchObject({ refundedAmount: 1_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 1_000, reserved: 0 });
  });

  it("while Arara's own devolução on the Pix is open, one made outside it waits (it may be Arara's under another id); a MED does not wait", async () => {
    const { acc, id, e2eid, start } = await setup("Loja devolução aberta");
    const asked = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 1_000 } });
    expect(asked.status, asked.text).toBe(200);
    const [ours] = await refundsOf(id);
    expect(["requested", "processing"]).toContain(ours.status);
    psp.medReturn(e2eid, { amount: 2_000, natureza: "ORIGINAL" });
    // A MED natureza Banco Central may add later is a MED too.
    psp.medReturn(e2eid, { amount: 300, natureza: "MED_NOVA" as "MED_FRAUDE" });
    await notify(acc.companyId, e2eid, await txidOf(id));
    expect((await refundsOf(id)).map((r) => [r.initiatedBy, r.natureza, r.amount])).toEqual([
      ["merchant", null, 1_000],
      ["psp", "MED_NOVA", 300],
    ]);
    // Ours settles: the next read books the other one.
    psp.settleDevolucao(e2eid, ours.devolucaoId, "DEVOLVIDO");
    await notify(acc.companyId, e2eid, await txidOf(id));
    expect((await refundsOf(id)).map((r) => [r.initiatedBy, r.natureza, r.amount, r.status])).toEqual([
      ["merchant", null, 1_000, "done"],
      ["psp", "MED_NOVA", 300, "done"],
      ["psp", "ORIGINAL", 2_000, "done"],
    ]);
    expect(await txRow(id)).toMatchObject({ refundedAmount: 3_300 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 3_300, reserved: 0 });
    const [account] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    const html = renderToStaticMarkup(createElement(TimelineCard, { timeline: (await getTransactionDetail({ account, now: new Date() }, id)).timeline }));
    expect(html).toContain("Devolução feita pelo PSP (MED, Mecanismo Especial de Devolução): reembolso registrado");
  });

  it("in part, seen by the charge's re-read (GET /cob): a partial refund, the transaction stays paid", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED parcial cob");
    psp.medReturn(e2eid, { amount: 3_000, natureza: "MED_OPERACIONAL" });
    psp.dropWebhooks();
    const config = await pspConfigOf(acc.companyId);
    const [charge] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id));
    await syncCharge(clientFor(config!), charge, later(1));

    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 3_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 3_000, reserved: 0 });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", natureza: "MED_OPERACIONAL", amount: 3_000, status: "done" }]);
    const causes = await causesOf(id);
    expect(causes.slice(-2)).toEqual([
      { cause: "psp_med_return", amount: 3_000, to: "paid" },
      { cause: "partial_refund", amount: 3_000, to: "paid" },
    ]);
    expect((await eventsOf(id)).filter((e) => e.type === "refund").map((e) => e.status)).toEqual(["done"]);

    // The merchant may still refund the rest, and no more.
    const tooMuch = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 7_001 }, headers: { "idempotency-key": `med-${id}-1` } });
    expect(tooMuch.status, tooMuch.text).toBe(422);
  });

  it("in part, seen only by the GET /pix scan: booked once", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED parcial scan");
    psp.medReturn(e2eid, { amount: 2_500, natureza: "MED_PIX_AUTOMATICO" });
    psp.dropWebhooks();
    // The scan reads the Pix created in its window (GET /pix filters by the Pix's time): as the first
    // scan of a configuration does, this one looks back 24 hours, over the Pix paid before.
    await getDb().update(accountPspConfigs).set({ pixScannedUntil: null, leaseUntil: null }).where(eq(accountPspConfigs.companyId, acc.companyId));
    await reconcileApiPix({ now: later(2) });
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 2_500 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 2_500 });
    await reconcileApiPix({ now: later(2) });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", natureza: "MED_PIX_AUTOMATICO", amount: 2_500, status: "done" }]);
    expect((await causesOf(id)).filter((c) => c.cause === "psp_med_return")).toHaveLength(1);
  });

  it("seen by the notification and the reconciliation at once: booked once", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED concorrente");
    psp.medReturn(e2eid, { amount: 4_000 });
    psp.dropWebhooks();
    const config = await pspConfigOf(acc.companyId);
    const [charge] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id));
    const now = later(2);
    await Promise.all([
      handleApiPixWebhook(config!.webhookToken, { pix: [{ endToEndId: e2eid }] }, now),
      reconcileApiPix({ now }),
      syncCharge(clientFor(config!), charge, now),
      handleApiPixWebhook(config!.webhookToken, { pix: [{ endToEndId: e2eid, txid: charge.txid }] }, now),
    ]);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 4_000 });
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 4_000 });
    expect((await causesOf(id)).filter((c) => c.cause === "psp_med_return" || c.cause === "partial_refund")).toHaveLength(2);
    expect((await eventsOf(id)).filter((e) => e.type === "refund")).toHaveLength(1);
  });

  it("EM_PROCESSAMENTO books nothing; the reconciliation reads it again and books it once when DEVOLVIDO", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED em processamento");
    const med = psp.medReturn(e2eid, { amount: 6_000, status: "EM_PROCESSAMENTO" });
    await notify(acc.companyId, e2eid);

    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp, reserved: 0 });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", status: "processing", amount: 6_000, reserved: false }]);
    expect((await causesOf(id)).filter((c) => c.cause.startsWith("psp_med"))).toEqual([]);
    expect((await eventsOf(id)).filter((e) => e.type === "refund")).toEqual([]);
    // The return in progress counts against what the merchant may still refund.
    const tooMuch = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: { amount: 4_001 }, headers: { "idempotency-key": `med-${id}-2` } });
    expect(tooMuch.status, tooMuch.text).toBe(422);
    await reconcileApiPix({ now: later() });
    expect(await txRow(id)).toMatchObject({ refundedAmount: 0 });

    psp.settleDevolucao(e2eid, med.id, "DEVOLVIDO");
    psp.dropWebhooks(); // no notification: the reconciliation reads it again by itself
    await reconcileApiPix({ now: later() });
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 6_000 });
    expect(await refundsOf(id)).toMatchObject([{ status: "done", amount: 6_000 }]);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 6_000 });

    await notify(acc.companyId, e2eid, await txidOf(id));
    await reconcileApiPix({ now: later() });
    expect(await txRow(id)).toMatchObject({ refundedAmount: 6_000 });
    expect((await causesOf(id)).filter((c) => c.cause === "psp_med_return")).toEqual([{ cause: "psp_med_return", amount: 6_000, to: "paid" }]);
    expect((await eventsOf(id)).filter((e) => e.type === "refund").map((e) => e.status)).toEqual(["done"]);
  });

  it("NAO_REALIZADO books nothing: one seen in progress is closed as failed, one never seen leaves nothing", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED nao realizado");
    const med = psp.medReturn(e2eid, { amount: 5_000, status: "EM_PROCESSAMENTO" });
    await notify(acc.companyId, e2eid, await txidOf(id));
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", status: "processing", amount: 5_000 }]);
    psp.settleDevolucao(e2eid, med.id, "NAO_REALIZADO", "Reivindicação MED negada");
    psp.dropWebhooks();
    await reconcileApiPix({ now: later() });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", status: "failed", amount: 5_000 }]);
    expect((await eventsOf(id)).filter((e) => e.type === "refund").map((e) => e.status)).toEqual(["failed"]);

    psp.medReturn(e2eid, { amount: 1_000, status: "NAO_REALIZADO" });
    await notify(acc.companyId, e2eid, await txidOf(id));
    await reconcileApiPix({ now: later() });
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp, reserved: 0 });
    expect((await causesOf(id)).filter((c) => c.cause.startsWith("psp_med") || c.cause.includes("refund")).map((c) => c.cause)).toEqual(["psp_refund_failed"]);
  });

  it("on a charge the merchant already refunded in full: nothing more is booked, it is recorded for attention", async () => {
    const { acc, id, e2eid, start } = await setup("Loja MED ja reembolsada");
    const r = await call("POST", `/api/v1/transactions/${id}/refund`, { auth: acc.secretKey, body: {}, headers: { "idempotency-key": `med-${id}-3` } });
    expect(r.status, r.text).toBe(200);
    const [own] = await refundsOf(id);
    psp.settleDevolucao(e2eid, own.devolucaoId, "DEVOLVIDO");
    await notify(acc.companyId, e2eid);
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    const eventsBefore = (await eventsOf(id)).length;

    // A PSP that lists a MED return beyond what the Pix had left.
    psp.medReturn(e2eid, { amount: 10_000, beyondPix: true });
    const logs = captureLogLines("warn");
    try {
      await notify(acc.companyId, e2eid, await txidOf(id));
      await reconcileApiPix({ now: later() });
    } finally {
      logs.restore();
    }
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000, reserved: 0 });
    const rows = await refundsOf(id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ initiatedBy: "psp", status: "failed" });
    expect(rows[1].failReason).toMatch(/nada mais a reembolsar/);
    expect((await causesOf(id)).filter((c) => c.cause.startsWith("psp_med"))).toEqual([{ cause: "psp_med_return_unbooked", amount: 10_000, to: "refunded" }]);
    expect((await eventsOf(id)).length).toBe(eventsBefore);
    expect(logs.lines.filter((l) => l.includes("needs attention") && l.includes('"level":50'))).toHaveLength(1);
  });

  it("that availableAtPsp does not cover: nothing forced, recorded for attention, booked once the balance covers it", async () => {
    const acc = await pspConfiguredAccount("Loja MED sem saldo", psp, pki, KEY);
    const { id, e2eid } = await paidPix(acc.secretKey, 10_000);
    const start = await balance(acc.secretKey);
    expect(start.availableAtPsp).toBeLessThan(10_000); // the fee was taken: a full return is not covered
    psp.medReturn(e2eid, {});
    const logs = captureLogLines("warn");
    try {
      await notify(acc.companyId, e2eid);
      await reconcileApiPix({ now: later() });
    } finally {
      logs.restore();
    }
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp, reserved: 0 });
    const [row] = await refundsOf(id);
    expect(row).toMatchObject({ initiatedBy: "psp", status: "processing", amount: 10_000 });
    expect(row.failReason).toMatch(/availableAtPsp/);
    expect((await causesOf(id)).filter((c) => c.cause.startsWith("psp_med"))).toEqual([{ cause: "psp_med_return_unbooked", amount: 10_000, to: "paid" }]);
    expect(logs.lines.filter((l) => l.includes("needs attention") && l.includes('"level":50'))).toHaveLength(1);

    // More money arrives at the PSP: the next reading (here the reconciliation that finds that payment) books it, once.
    const more = await paidPix(acc.secretKey, 50_000);
    await reconcileApiPix({ now: later(120) });
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    const net = 50_000 - (await txRow(more.id)).feeEstimated;
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp + net - 10_000, reserved: 0 });
    expect(await refundsOf(id)).toMatchObject([{ status: "done", amount: 10_000 }]);
    expect((await causesOf(id)).filter((c) => c.cause.startsWith("psp_med")).map((c) => c.cause)).toEqual(["psp_med_return_unbooked", "psp_med_return"]);
    expect((await eventsOf(id)).filter((e) => e.type === "refund").map((e) => e.status)).toEqual(["done"]);
    await reconcileApiPix({ now: later(120) });
    expect(await refundsOf(id)).toHaveLength(1);
  });
});

