/**
 * Webhook delivery end to end inside the test process: real route handlers (call()), the real
 * dispatcher loop on this file's database, and a real HTTP receiver on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { webhookAttempts, webhookEvents } from "@/lib/db/schema";
import { isEnd2EndId } from "@/lib/domain/pix/end2end";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { SANDBOX_PSP_ISPB } from "@/lib/services/transactions/sandbox-move";
import { startDispatcher, type Dispatcher, type DispatcherOptions } from "@/lib/webhooks/dispatcher";

let acct: CreatedAccount;
let other: CreatedAccount;
let receiver: Receiver | undefined;
let dispatchers: Dispatcher[] = [];

const FAST: Partial<DispatcherOptions> = { scheduleMs: [0, 150, 150, 150, 150], timeoutMs: 2000, pollMs: 40 };

function dispatch(opts: Partial<DispatcherOptions> = {}) {
  const d = startDispatcher({ ...FAST, ...opts });
  dispatchers.push(d);
  return d;
}

/** Stops the dispatchers; their stop() waits until every attempt in flight is written. */
async function settle() {
  await Promise.all(dispatchers.map((d) => d.stop()));
}

async function createPix(postbackUrl: string | null, amount = 1000, account = acct): Promise<number> {
  const res = await call("POST", "/api/v1/transactions", { auth: account.secretKey, body: pixCharge(postbackUrl, amount) });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function move(id: number, status: string, account = acct) {
  const res = await call("PUT", `/api/v1/transactions/${id}/test`, { auth: account.secretKey, body: { status } });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function webhooksOf(id: number, account = acct) {
  const res = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: account.secretKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data as any[];
}

/** The statuses the receiver accepted (2xx) for one transaction, in arrival order. */
function acceptedStatuses(r: Receiver, transactionId: number): string[] {
  return r.hits.filter((h) => h.json?.data?.id === transactionId && h.answered === 200).map((h) => h.json.data.status);
}

beforeAll(async () => {
  acct = await createTestAccount("Loja Webhooks");
  other = await createTestAccount("Outra Loja");
  // Balance for the sandbox refunds below (a refund debits the merchant's available funds).
  const funding = await createPix(null, 500_000);
  await move(funding, "paid");
});

afterEach(async () => {
  await Promise.all(dispatchers.map((d) => d.stop()));
  dispatchers = [];
  await receiver?.close();
  receiver = undefined;
});

afterAll(async () => {
  await Promise.all(dispatchers.map((d) => d.stop()));
});

describe("webhook delivery", () => {
  it("sends every status change of a PIX once, in order, signed so that standardwebhooks verifies it", async () => {
    const r = (receiver = await startReceiver());
    const hook = `${r.url}/hooks/arara?src=test`;
    dispatch();
    const refundedPix = await createPix(hook, 1234);
    await move(refundedPix, "paid");
    await move(refundedPix, "refunded");
    const disputedPix = await createPix(hook, 4321);
    for (const s of ["paid", "chargedback", "in_protest", "paid"]) await move(disputedPix, s);

    await r.waitFor(() => r.delivered().size === 8, 20_000, "8 deliveries");
    await new Promise((res) => setTimeout(res, 300)); // nothing more may arrive
    await settle();
    expect(r.hits).toHaveLength(8);
    expect(acceptedStatuses(r, refundedPix)).toEqual(["pending", "paid", "refunded"]);
    expect(acceptedStatuses(r, disputedPix)).toEqual(["pending", "paid", "chargedback", "in_protest", "paid"]);

    const verifier = new Webhook(acct.webhookSecret);
    const wrong = new Webhook(other.webhookSecret);
    for (const hit of r.hits) {
      expect(hit.headers["content-type"]).toBe("application/json");
      expect(hit.headers["webhook-id"]).toBe(String(hit.json.id));
      expect(Math.abs(Number(hit.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
      expect(hit.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verifier.verify(hit.body, hit.headers)).toEqual(hit.json);
      expect(() => wrong.verify(hit.body, hit.headers)).toThrow();
      expect(() => verifier.verify(hit.body.replace('"amount":', '"amount": '), hit.headers)).toThrow();
    }
    // Notification ids are unique and increase along each transaction's events.
    const ids = r.hits.map((h) => h.json.id as number);
    expect(new Set(ids).size).toBe(8);
    for (const tx of [refundedPix, disputedPix]) {
      const mine = r.hits.filter((h) => h.json.data.id === tx).map((h) => h.json.id as number);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }

    const log = await webhooksOf(disputedPix);
    expect(log.map((e) => e.status)).toEqual(["pending", "paid", "chargedback", "in_protest", "paid"]);
    for (const e of log) {
      expect(e).toMatchObject({ type: "transaction", url: hook, deliveryState: "succeeded", attemptCount: 1, nextAttemptAt: null });
      expect(e.attempts).toHaveLength(1);
      expect(e.attempts[0]).toMatchObject({ number: 1, manual: false, success: true, httpStatus: 200, error: null, responseExcerpt: "ok" });
      expect(e.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("posts exactly the spec's notification body", async () => {
    const r = (receiver = await startReceiver());
    dispatch();
    const id = await createPix(`${r.url}/h`, 2500);
    const paid = await move(id, "paid");
    await r.waitFor(() => r.delivered().size === 2, 10_000, "2 deliveries");

    const [pending, paidHit] = r.hits.map((h) => h.json);
    expect(Object.keys(paidHit).sort()).toEqual(["data", "id", "type", "url"]);
    expect(paidHit).toMatchObject({ type: "transaction", url: `${r.url}/h` });
    expect(typeof paidHit.id).toBe("number");
    const data = paidHit.data;
    // Every field of the spec's table, with its type.
    expect(data).toMatchObject({
      id,
      status: "paid",
      amount: 2500,
      paidAmount: 2500,
      paymentMethod: "pix",
      secureId: paid.secureId,
      customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
    });
    expect(data).toHaveProperty("externalRef");
    expect(data.paidAt).toBe(paid.paidAt);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(data.fee).toEqual({ netAmount: 2500 - data.fee.estimatedFee, fixedAmount: expect.any(Number), estimatedFee: expect.any(Number) });
    expect(data.fee.estimatedFee).toBe(25); // PIX 0.99% of R$ 25,00, rounded half up
    expect(data.pix.qrcode).toMatch(/^000201/);
    expect(isEnd2EndId(data.pix.end2end)).toBe(true);
    expect(data.pix.end2end.slice(1, 9)).toBe(SANDBOX_PSP_ISPB);
    expect(data).not.toHaveProperty("boleto");
    // The pending event is a snapshot of creation time: nothing paid yet.
    expect(pending.data).toMatchObject({ id, status: "pending", paidAmount: 0, paidAt: null });
    expect(pending.data.pix.end2end).toBeNull();
  });

  it("a receiver that fails 3 times then recovers gets every event, in order, after the retries", async () => {
    let failuresLeft = 3;
    const r = (receiver = await startReceiver(() => (failuresLeft-- > 0 ? { status: 503, body: "maintenance" } : { status: 200 })));
    dispatch();
    const id = await createPix(`${r.url}/flaky`);
    await move(id, "paid");
    await move(id, "chargedback");
    await r.waitFor(() => r.delivered().size === 3, 15_000, "3 deliveries");
    await settle();

    expect(r.hits.map((h) => [h.json.data.status, h.answered])).toEqual([
      ["pending", 503],
      ["pending", 503],
      ["pending", 503],
      ["pending", 200],
      ["paid", 200],
      ["chargedback", 200],
    ]);
    const [first, ...rest] = await webhooksOf(id);
    expect(first.deliveryState).toBe("succeeded");
    expect(first.attemptCount).toBe(4);
    expect(first.attempts.map((a: any) => [a.number, a.success, a.httpStatus])).toEqual([
      [1, false, 503],
      [2, false, 503],
      [3, false, 503],
      [4, true, 200],
    ]);
    expect(first.attempts[0].responseExcerpt).toBe("maintenance");
    expect(first.attempts[0].error).toMatch(/HTTP 503/);
    // The retries followed the (test) schedule: each at least 150 ms after the one before.
    const times = first.attempts.map((a: any) => Date.parse(a.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(140);
    expect(rest.map((e: any) => [e.status, e.deliveryState, e.attemptCount])).toEqual([
      ["paid", "succeeded", 1],
      ["chargedback", "succeeded", 1],
    ]);
  });

  it("marks an event failed when the schedule runs out, then delivers the next event of the transaction", async () => {
    const r = (receiver = await startReceiver((hit) => (hit.json.data.status === "pending" ? { status: 500 } : { status: 200 })));
    dispatch({ scheduleMs: [0, 100, 100] });
    const id = await createPix(`${r.url}/always-500-for-pending`);
    await move(id, "paid");
    await r.waitFor(() => r.delivered().size === 1, 10_000, "the paid event");
    await settle();

    expect(r.hits.map((h) => h.json.data.status)).toEqual(["pending", "pending", "pending", "paid"]);
    const [pending, paid] = await webhooksOf(id);
    expect(pending).toMatchObject({ deliveryState: "failed", attemptCount: 3, nextAttemptAt: null });
    expect(pending.attempts.every((a: any) => !a.success && a.httpStatus === 500)).toBe(true);
    expect(paid).toMatchObject({ deliveryState: "succeeded", attemptCount: 1 });
  });

  it("times out a receiver that hangs and records the timeout as the attempt's error", async () => {
    let hang = true;
    const r = (receiver = await startReceiver(() => (hang ? { hang: true } : { status: 200 })));
    dispatch({ timeoutMs: 300, scheduleMs: [0, 200] });
    const id = await createPix(`${r.url}/slow`);
    await r.waitFor(() => r.hits.length === 1, 5000, "the first attempt");
    hang = false;
    await r.waitFor(() => r.delivered().size === 1, 5000, "the retry");
    await settle();

    const [event] = await webhooksOf(id);
    expect(event.deliveryState).toBe("succeeded");
    const [timedOut, ok] = event.attempts;
    expect(timedOut).toMatchObject({ success: false, httpStatus: null, responseExcerpt: null });
    expect(timedOut.error).toMatch(/timeout/i);
    expect(timedOut.durationMs).toBeGreaterThanOrEqual(290);
    expect(timedOut.durationMs).toBeLessThan(2000);
    expect(ok).toMatchObject({ success: true, httpStatus: 200 });
  });

  it("keeps a transaction's events waiting while the receiver is down, and delivers them in order when it is back", async () => {
    const r = (receiver = await startReceiver());
    await r.down();
    dispatch({ scheduleMs: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100] });
    const id = await createPix(`${r.url}/down`);
    await move(id, "paid");
    await new Promise((res) => setTimeout(res, 400));
    const [first, second] = await webhooksOf(id);
    expect(first.deliveryState).toBe("pending");
    expect(first.attempts.length).toBeGreaterThanOrEqual(2);
    expect(first.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(second.attempts).toHaveLength(0); // never overtakes the pending one
    await r.up();
    await r.waitFor(() => r.delivered().size === 2, 10_000, "both events");
    expect(r.hits.map((h) => h.json.data.status)).toEqual(["pending", "paid"]);
  });

  it("sends events without a postbackUrl nowhere and keeps them as skipped", async () => {
    const id = await createPix(null);
    await move(id, "paid");
    const log = await webhooksOf(id);
    expect(log.map((e) => [e.status, e.deliveryState, e.url])).toEqual([
      ["pending", "skipped", null],
      ["paid", "skipped", null],
    ]);
  });

  it("scopes the webhook log to the account", async () => {
    const id = await createPix(null);
    const res = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: other.secretKey });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await call("GET", `/api/v1/transactions/${id}/webhooks`, {})).status).toBe(401);
  });
});

describe("several dispatchers on one database", () => {
  it("deliver each attempt exactly once and every transaction in order", async () => {
    // The receiver fails each event's first attempt, so every event needs exactly two attempts.
    const r = (receiver = await startReceiver((_hit, n) => (n === 1 ? { status: 500 } : { status: 200 })));
    // A generous timeout: on a busy machine a 2 s one turns a slow answer into one more attempt, which
    // is correct behaviour but not what this test counts.
    for (let i = 0; i < 3; i++) dispatch({ scheduleMs: [0, 50, 50, 50], concurrency: 4, pollMs: 20, timeoutMs: 15_000 });
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await createPix(`${r.url}/multi`, 1000 + i);
      ids.push(id);
      await move(id, "paid");
      if (i % 2 === 0) await move(id, "chargedback");
    }
    const expected = 12 * 2 + 6;
    await r.waitFor(() => r.delivered().size === expected, 30_000, `${expected} events`);
    await new Promise((res) => setTimeout(res, 300));
    await settle();

    const perEvent = new Map<string, number>();
    for (const h of r.hits) perEvent.set(h.eventId, (perEvent.get(h.eventId) ?? 0) + 1);
    expect(perEvent.size).toBe(expected);
    expect([...perEvent.values()].every((n) => n === 2)).toBe(true);
    for (const id of ids) {
      const seq = r.hits.filter((h) => h.json.data.id === id).map((h) => h.json.id as number);
      expect(seq).toEqual([...seq].sort((a, b) => a - b));
    }
    const rows = await getDb().select().from(webhookAttempts).innerJoin(webhookEvents, eq(webhookEvents.id, webhookAttempts.eventId)).where(eq(webhookEvents.url, `${r.url}/multi`));
    expect(rows).toHaveLength(expected * 2);
  });
});
