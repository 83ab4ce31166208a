/**
 * What a PSP notification may cost at the merchant's PSP (lib/services/psp/api-pix-webhook.ts). The
 * webhook's token is in a URL and leaks; whoever holds it must not be able to spend the merchant's PSP
 * quotas through Arara. Against the local PSP (real mutual TLS), counting the API calls it receives:
 *
 * - one real notification (a paid charge's e2eid) replayed 50 times at once: at most
 *   NOTIFIED_READS_PER_WINDOW re-reads (2 calls each), its MED return booked once; the budget is a
 *   window (read again once it has passed), not a block;
 * - ids naming nothing of ours: at most UNKNOWN_READS_PER_MINUTE re-reads a minute for the account,
 *   however many notifications; a txid that is not one of our charges: never read;
 * - made-up e2eids beside one of our txids: bounded per charge, and the real notification that
 *   arrives within the window is not lost (the charge is marked due: the reconciliation's next tick
 *   pays it);
 * - a charge expired here and paid at the PSP afterwards, notified beside made-up ids after the
 *   account's budget for them is spent: read at once, paid after expiry.
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
import { pspCharges, pspRefunds, transactionStatusChanges } from "@/lib/db/schema";
import { pspConfigOf } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import {
  handleApiPixWebhook,
  NOTIFIED_DUE,
  NOTIFIED_READS_PER_WINDOW,
  NOTIFIED_READS_WINDOW_MS,
  UNKNOWN_READS_PER_MINUTE,
} from "@/lib/services/psp/api-pix-webhook";

const KEY = "orcamento@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

localPspSuite(KEY, (p, k) => {
  psp = p;
  pki = k;
});

let minutes = 0;
/** A clock that only moves forward across the file (each reconciliation is due). */
const later = (step = 5) => new Date(Date.now() + (minutes += step) * 60_000);
const causesOf = async (id: number) =>
  (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id)).orderBy(asc(transactionStatusChanges.id))).map((c) => c.cause);

/** The API calls the PSP received since `from` (token requests apart). */
const apiCallsSince = (from: number) => psp.requests.slice(from).filter((r) => r.kind === "api");
/** Made-up end-to-end ids, valid in form, that no Pix has. */
const madeUp = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `E99999999202601011200${String(seed * 1000 + i).padStart(11, "0")}`);

async function createCharge(secretKey: string, amount = 10_000, extra: Record<string, unknown> = {}) {
  const r = await call("POST", "/api/v1/transactions", {
    auth: secretKey,
    body: pixBody({ amount, postbackUrl: "https://loja.example/webhooks", items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }], ...extra }),
  });
  expect(r.status, r.text).toBe(201);
  return r.body.data.id as number;
}

async function paidPix(secretKey: string, amount: number) {
  const id = await createCharge(secretKey, amount);
  const pix = await psp.pay(await txidOf(id), { notify: "drop" });
  await reconcileApiPix({ now: later() });
  expect((await txRow(id)).status).toBe("paid");
  return { id, e2eid: pix.endToEndId };
}

async function account(name: string) {
  const acc = await pspConfiguredAccount(name, psp, pki, KEY);
  const config = (await pspConfigOf(acc.companyId))!;
  return { ...acc, token: config.webhookToken };
}

describe("a notification replayed", () => {
  it("one real e2eid replayed 50 times at once: at most a window's budget of re-reads, the MED return in it booked once; read again once the window has passed", async () => {
    const acc = await account("Loja replay");
    const { id, e2eid } = await paidPix(acc.secretKey, 10_000);
    await paidPix(acc.secretKey, 50_000); // other money at the PSP
    psp.medReturn(e2eid, { amount: 3_000, natureza: "MED_FRAUDE" });
    psp.dropWebhooks();

    const from = psp.requests.length;
    const now = later(1);
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => handleApiPixWebhook(acc.token, { pix: [{ endToEndId: e2eid }] }, now)));
    const calls = apiCallsSince(from);
    // Each re-read is GET /pix/{e2eid} and GET /cob/{txid}: at most the window's budget of them.
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThanOrEqual(2 * NOTIFIED_READS_PER_WINDOW);
    expect(calls.every((c) => c.method === "GET")).toBe(true);
    const throttled = outcomes.reduce((s, o) => s + (o.found ? o.throttled : 0), 0);
    expect(throttled).toBeGreaterThanOrEqual(50 - NOTIFIED_READS_PER_WINDOW);

    // The charge is right: the MED return booked once.
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 3_000 });
    expect(await getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, id))).toMatchObject([{ initiatedBy: "psp", amount: 3_000, status: "done" }]);
    expect((await causesOf(id)).filter((c) => c === "psp_med_return")).toHaveLength(1);

    // Another MED return later: the window has passed, the notification reads it.
    psp.medReturn(e2eid, { amount: 2_000, natureza: "MED_OPERACIONAL" });
    psp.dropWebhooks();
    const again = psp.requests.length;
    await handleApiPixWebhook(acc.token, { pix: [{ endToEndId: e2eid }] }, new Date(now.getTime() + NOTIFIED_READS_WINDOW_MS + 1));
    expect(apiCallsSince(again).length).toBe(2);
    expect(await txRow(id)).toMatchObject({ status: "paid", refundedAmount: 5_000 });
  });

  it("made-up e2eids beside a real txid: bounded per charge, and the real notification just after is not lost (marked due, paid by the next tick)", async () => {
    const acc = await account("Loja txid real");
    const id = await createCharge(acc.secretKey);
    const txid = await txidOf(id);
    const now = later(1);
    const from = psp.requests.length;
    for (let round = 0; round < 5; round++) {
      await handleApiPixWebhook(acc.token, { pix: madeUp(10, round).map((endToEndId) => ({ endToEndId, txid })) }, now);
    }
    // 50 items naming our charge: at most the window's budget of re-reads (each a GET /pix answered 404).
    expect(apiCallsSince(from).length).toBeLessThanOrEqual(2 * NOTIFIED_READS_PER_WINDOW);

    // The payer pays; the PSP's notification comes within the same window: not read now, the charge marked due.
    const pix = await psp.pay(txid, { notify: "drop" });
    const outcome = await handleApiPixWebhook(acc.token, { pix: [{ endToEndId: pix.endToEndId, txid }] }, now);
    expect(outcome).toMatchObject({ found: true, throttled: 1, checked: 0 });
    expect((await txRow(id)).status).toBe("pending");
    const [charge] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id));
    expect(charge.nextCheckAt.getTime()).toBe(NOTIFIED_DUE.getTime());
    await reconcileApiPix({ now: new Date(now.getTime() + 15_000) });
    expect((await txRow(id)).status).toBe("paid");
    expect((await txRow(id)).pixEnd2end).toBe(pix.endToEndId);
  });
});

describe("ids that name nothing of ours", () => {
  it("10 made-up e2eids: at most the account's budget of re-reads a minute, however many notifications; a txid not ours is never read", async () => {
    const acc = await account("Loja ids inventados");
    const now = later(1);
    const from = psp.requests.length;
    const first = await handleApiPixWebhook(acc.token, { pix: madeUp(10, 1).map((endToEndId) => ({ endToEndId })) }, now);
    expect(first).toMatchObject({ found: true, ids: 10, unknownRead: UNKNOWN_READS_PER_MINUTE, unknownSkipped: 10 - UNKNOWN_READS_PER_MINUTE });
    expect(apiCallsSince(from).length).toBeLessThanOrEqual(UNKNOWN_READS_PER_MINUTE);
    expect(apiCallsSince(from).every((c) => c.method === "GET" && c.path.includes("/pix/"))).toBe(true);

    // More notifications within the minute (as from another instance): nothing more is asked of the PSP.
    const more = psp.requests.length;
    await Promise.all([1, 2, 3, 4].map((seed) => handleApiPixWebhook(acc.token, { pix: madeUp(10, 10 + seed).map((endToEndId) => ({ endToEndId })) }, new Date(now.getTime() + 30_000))));
    expect(apiCallsSince(more)).toHaveLength(0);

    // A txid that is not one of our charges names another system's charge: not read, budget or not.
    const next = new Date(now.getTime() + 61_000);
    const notOurs = psp.requests.length;
    const other = await handleApiPixWebhook(acc.token, { pix: madeUp(10, 20).map((endToEndId, i) => ({ endToEndId, txid: `OutroSistema${String(i).padStart(20, "0")}` })) }, next);
    expect(other).toMatchObject({ found: true, notOurs: 10, unknownRead: 0 });
    expect(apiCallsSince(notOurs)).toHaveLength(0);

    // The next minute, the budget is there again.
    const renewed = psp.requests.length;
    await handleApiPixWebhook(acc.token, { pix: madeUp(2, 30).map((endToEndId) => ({ endToEndId })) }, next);
    expect(apiCallsSince(renewed)).toHaveLength(2);
  });

  it("a charge expired here and paid at the PSP later, notified beside made-up ids once their budget is spent: read at once, paid after expiry", async () => {
    const acc = await account("Loja corrida perdida");
    const id = await createCharge(acc.secretKey, 10_000, { pix: { expiresInDays: 1 } });
    const txid = await txidOf(id);
    await reconcileApiPix({ now: new Date(Date.now() + 3 * 86_400_000) });
    expect((await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].status).toBe("expired");

    const now = later(1);
    await handleApiPixWebhook(acc.token, { pix: madeUp(UNKNOWN_READS_PER_MINUTE, 40).map((endToEndId) => ({ endToEndId })) }, now);
    const pix = await psp.pay(txid, { at: new Date(Date.now() + 2 * 86_400_000), afterExpiry: true, notify: "drop" });
    const from = psp.requests.length;
    const outcome = await handleApiPixWebhook(acc.token, { pix: [...madeUp(5, 41).map((endToEndId) => ({ endToEndId })), { endToEndId: pix.endToEndId, txid }] }, now);
    expect(outcome).toMatchObject({ found: true, unknownSkipped: 5, checked: 1 });
    expect(apiCallsSince(from).map((c) => c.path.replace(/^.*\/(pix|cob)\/.*$/, "$1"))).toEqual(["pix", "cob"]);
    expect(await txRow(id)).toMatchObject({ status: "paid", pixEnd2end: pix.endToEndId });
    expect(await causesOf(id)).toContain("psp_paid_after_expiry");
  });
});
