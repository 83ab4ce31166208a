/**
 * A PSP notification item that is not read at once (past the first SYNC_ITEMS of the notification, or
 * past its charge's budget of re-reads) and names a Pix that already paid one of our charges marks that
 * Pix due (psp_pix_received.next_check_at), and the reconciliation reads it (`GET /pix/{e2eid}`) and
 * books what it lists: a MED return the PSP made weeks after the payment, when the charge is no longer
 * polled and the `GET /pix` scan's window no longer holds the Pix. Against the local PSP (real mutual
 * TLS), on a clock that jumps weeks ahead before each reconciliation of a return:
 *
 * - the 11th item of a notification: booked by the next tick (refundedAmount, availableAtPsp), once;
 * - an item throttled by its charge's budget: the same;
 * - two reconciliations at once: the Pix read once, the return booked once;
 * - a read that fails: still due (later), booked by a later tick; a 429 with Retry-After: not asked
 *   again before it, nor the rest of the account's batch.
 *
 * ledger:check passes after every test.
 */
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { pixBody } from "../helpers/flows";
import type { ApiPixPsp, TestPki } from "@/tests/helpers/api-pix-psp";
import { localPspSuite, txidOf, txRow } from "../helpers/api-pix-suite";
import { getDb } from "@/lib/db/client";
import { pspPixReceived, pspRefunds, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { pspConfigOf } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { handleApiPixWebhook, NOTIFIED_DUE, NOTIFIED_READS_PER_WINDOW, SYNC_ITEMS } from "@/lib/services/psp/api-pix-webhook";

const KEY = "devida@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

localPspSuite(KEY, (p, k) => {
  psp = p;
  pki = k;
});

const MINUTE = 60_000;
const BASE = Date.now();
let offset = 0;
/** A clock that only moves forward across the file, by the steps given (each reconciliation is due). */
const later = (step = 5 * MINUTE) => new Date(BASE + (offset += step));
/**
 * Weeks after the payment, as a MED return comes: the `GET /pix` scan's window (the last day at most)
 * no longer holds the Pix, so only a re-read of the Pix itself finds the return.
 */
const weeksLater = () => later(30 * 86_400_000);

const receivedRow = async (e2eid: string) => (await getDb().select().from(pspPixReceived).where(eq(pspPixReceived.e2eid, e2eid)))[0];
const refundsOf = (id: number) => getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id)).orderBy(asc(pspRefunds.id));
const medCauses = async (id: number) =>
  (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id))).filter((c) => c.cause === "psp_med_return");
const refundEvents = async (id: number) => (await getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id))).filter((e) => e.type === "refund");
/** The `GET /pix/{e2eid}` the PSP answered since `from`. */
const pixReadsSince = (from: number, e2eid: string) => psp.requests.slice(from).filter((r) => r.kind === "api" && r.method === "GET" && r.path.endsWith(`/pix/${e2eid}`)).length;
/** Items of another system's charges on the same key (their txid is not ours): never read, but they fill the first SYNC_ITEMS. */
const othersItems = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => ({ endToEndId: `E99999999202601011200${String(seed * 1000 + i).padStart(11, "0")}`, txid: `OutroSistema${String(seed * 1000 + i).padStart(20, "0")}` }));

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

/** An account with a paid PIX of 10,000 and other money at the PSP (the fee is kept on refunds). */
async function setup(name: string) {
  const acc = await pspConfiguredAccount(name, psp, pki, KEY);
  const token = (await pspConfigOf(acc.companyId))!.webhookToken;
  const charge = await paidPix(acc.secretKey, 10_000);
  await paidPix(acc.secretKey, 50_000);
  return { acc, token, ...charge, start: await balance(acc.secretKey) };
}

/** The PSP's MED return of `amount` on the Pix, weeks after it, notified as the 11th item of a batch. */
async function medNotifiedPastTheFirstItems(token: string, e2eid: string, amount: number) {
  psp.medReturn(e2eid, { amount, natureza: "MED_FRAUDE" });
  psp.dropWebhooks();
  const outcome = await handleApiPixWebhook(token, { pix: [...othersItems(SYNC_ITEMS, 1), { endToEndId: e2eid }] }, weeksLater());
  expect(outcome).toMatchObject({ found: true, ids: SYNC_ITEMS + 1, notOurs: SYNC_ITEMS, checked: 0, deferred: 1 });
}

describe("a return on a paid Pix notified but not read at once", () => {
  it("the 11th item of a notification: the Pix is marked due, and the next tick books its MED return, once", async () => {
    const { acc, token, id, e2eid, start } = await setup("Loja item 11");
    const from = psp.requests.length;
    await medNotifiedPastTheFirstItems(token, e2eid, 10_000);
    expect(pixReadsSince(from, e2eid)).toBe(0);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await receivedRow(e2eid)).toMatchObject({ nextCheckAt: NOTIFIED_DUE });

    const result = await reconcileApiPix({ now: later() });
    expect(result).toMatchObject({ received: 1, errors: 0 });
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await txRow(id)).toMatchObject({ status: "refunded", refundedAmount: 10_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000, reserved: 0, available: start.available });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", natureza: "MED_FRAUDE", amount: 10_000, status: "done" }]);
    expect(await receivedRow(e2eid)).toMatchObject({ nextCheckAt: null, dueSince: null });

    // The next ticks neither read it again nor book it twice.
    await reconcileApiPix({ now: later() });
    await reconcileApiPix({ now: weeksLater() });
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await medCauses(id)).toHaveLength(1);
    expect(await refundEvents(id)).toHaveLength(1);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 10_000 });
  });

  it("an item throttled by its charge's budget: the Pix is marked due, and the next tick books its MED return, once", async () => {
    const { acc, token, id, e2eid, start } = await setup("Loja item contido");
    // The charge's budget for the window is spent (the same Pix notified again and again: a replay).
    const now = weeksLater();
    for (let i = 0; i < NOTIFIED_READS_PER_WINDOW; i++) {
      expect(await handleApiPixWebhook(token, { pix: [{ endToEndId: e2eid }] }, now)).toMatchObject({ found: true, throttled: 0 });
    }
    // The PSP's real notification of a MED return comes within the window.
    psp.medReturn(e2eid, { amount: 4_000, natureza: "MED_OPERACIONAL" });
    psp.dropWebhooks();
    const from = psp.requests.length;
    expect(await handleApiPixWebhook(token, { pix: [{ endToEndId: e2eid }] }, new Date(now.getTime() + 1_000))).toMatchObject({ found: true, throttled: 1, checked: 0 });
    expect(pixReadsSince(from, e2eid)).toBe(0);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    expect(await receivedRow(e2eid)).toMatchObject({ nextCheckAt: NOTIFIED_DUE });

    await reconcileApiPix({ now: later() });
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 4_000 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 4_000, reserved: 0 });
    expect(await refundsOf(id)).toMatchObject([{ initiatedBy: "psp", natureza: "MED_OPERACIONAL", amount: 4_000, status: "done" }]);
    await reconcileApiPix({ now: later() });
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await medCauses(id)).toHaveLength(1);
  });

  it("two reconciliations at once: the Pix is read once and its return booked once", async () => {
    const { acc, token, id, e2eid, start } = await setup("Loja duas instancias");
    const from = psp.requests.length;
    await medNotifiedPastTheFirstItems(token, e2eid, 3_000);

    const now = later();
    const results = await Promise.all([reconcileApiPix({ now }), reconcileApiPix({ now })]);
    expect(results.map((r) => r.received).sort()).toEqual([0, 1]);
    expect(results.every((r) => r.errors === 0)).toBe(true);
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 3_000 });
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await medCauses(id)).toHaveLength(1);
    expect(await refundEvents(id)).toHaveLength(1);
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 3_000 });
  });

  it("a read that fails keeps the Pix due, later: a later tick books its return", async () => {
    const { acc, token, id, e2eid, start } = await setup("Loja leitura falha");
    const from = psp.requests.length;
    await medNotifiedPastTheFirstItems(token, e2eid, 2_500);

    psp.failNext(1, 503, "api");
    const failedAt = later();
    const failed = await reconcileApiPix({ now: failedAt });
    expect(failed.errors).toBe(1);
    expect(pixReadsSince(from, e2eid)).toBe(1);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 0 });
    // Due again a little later, not lost: after the time it has been due (5 minutes here; 2 to 60).
    const row = await receivedRow(e2eid);
    expect(row.nextCheckAt?.getTime()).toBe(failedAt.getTime() + 5 * MINUTE);
    expect(row.dueSince).not.toBeNull();
    await reconcileApiPix({ now: later(MINUTE) });
    expect(pixReadsSince(from, e2eid)).toBe(1);

    await reconcileApiPix({ now: later(4 * MINUTE) });
    expect(pixReadsSince(from, e2eid)).toBe(2);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 2_500 });
    expect(await balance(acc.secretKey)).toMatchObject({ availableAtPsp: start.availableAtPsp - 2_500 });
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await receivedRow(e2eid)).toMatchObject({ nextCheckAt: null, dueSince: null });
  });

  it("a 429 with Retry-After: the Pix and the rest of the account's batch wait for it, then are read and booked", async () => {
    const acc = await pspConfiguredAccount("Loja 429", psp, pki, KEY);
    const token = (await pspConfigOf(acc.companyId))!.webhookToken;
    const a = await paidPix(acc.secretKey, 10_000);
    const b = await paidPix(acc.secretKey, 20_000);
    await paidPix(acc.secretKey, 50_000);
    psp.medReturn(a.e2eid, { amount: 1_000 });
    psp.medReturn(b.e2eid, { amount: 2_000 });
    psp.dropWebhooks();
    await handleApiPixWebhook(token, { pix: [...othersItems(SYNC_ITEMS, 2), { endToEndId: a.e2eid }, { endToEndId: b.e2eid }] }, weeksLater());

    const from = psp.requests.length;
    psp.failNext(1, 429, "api", "600");
    const limitedAt = later();
    const limited = await reconcileApiPix({ now: limitedAt });
    expect(limited.errors).toBe(1);
    // One Pix asked, answered 429; the other not asked at all.
    expect(pixReadsSince(from, a.e2eid) + pixReadsSince(from, b.e2eid)).toBe(1);
    for (const e2eid of [a.e2eid, b.e2eid]) expect((await receivedRow(e2eid)).nextCheckAt?.getTime()).toBe(limitedAt.getTime() + 600_000);

    // Before the Retry-After has passed: nothing asked.
    await reconcileApiPix({ now: later(5 * MINUTE) });
    expect(pixReadsSince(from, a.e2eid) + pixReadsSince(from, b.e2eid)).toBe(1);
    // After it: both read, both booked.
    await reconcileApiPix({ now: later(6 * MINUTE) });
    expect(pixReadsSince(from, a.e2eid) + pixReadsSince(from, b.e2eid)).toBe(3);
    expect(await txRow(a.id)).toMatchObject({ refundedAmount: 1_000 });
    expect(await txRow(b.id)).toMatchObject({ refundedAmount: 2_000 });
  });

});
