/** POST /api/v1/webhooks/{eventId}/redeliver: a manual attempt, logged, that keeps the delivery order. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { startDispatcher } from "@/lib/webhooks/dispatcher";

let acct: CreatedAccount;
let other: CreatedAccount;
let r: Receiver;
let answer = 200;

beforeAll(async () => {
  acct = await createTestAccount("Loja Redelivery");
  other = await createTestAccount("Outra Loja");
  r = await startReceiver(() => ({ status: answer }));
});

afterAll(async () => {
  await r.close();
});

async function createPix(postbackUrl: string | null): Promise<number> {
  const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(postbackUrl, 1000) });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function eventIdsOf(id: number): Promise<number[]> {
  const res = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: acct.secretKey });
  return res.body.data.map((e: any) => e.id);
}

const redeliver = (eventId: number | string, account = acct) =>
  call("POST", `/api/v1/webhooks/${eventId}/redeliver`, { auth: account.secretKey });

/** Runs the dispatcher until the receiver has `hits` requests, then stops it. */
async function runDispatcher(hits: number, scheduleMs = [0]) {
  const d = startDispatcher({ scheduleMs, pollMs: 20, timeoutMs: 2000 });
  try {
    await r.waitFor(() => r.hits.length >= hits, 10_000, `${hits} hits`);
    await new Promise((res) => setTimeout(res, 100));
  } finally {
    await d.stop();
  }
}

describe("POST /api/v1/webhooks/{eventId}/redeliver", () => {
  it("sends a delivered event again, signed anew, and logs it as a manual attempt", async () => {
    answer = 200;
    const id = await createPix(`${r.url}/again`);
    const start = r.hits.length;
    await runDispatcher(start + 1);
    const [eventId] = await eventIdsOf(id);

    const res = await redeliver(eventId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe("Webhook delivered.");
    expect(res.body.data).toMatchObject({ id: eventId, delivered: true, deliveryState: "succeeded", attemptCount: 2 });
    expect(res.body.data.attempts.map((a: any) => [a.number, a.manual, a.success])).toEqual([
      [1, false, true],
      [2, true, true],
    ]);
    const [auto, manual] = r.hits.slice(start);
    expect(manual.eventId).toBe(String(eventId));
    expect(manual.body).toBe(auto.body); // same notification, same id
    expect(new Webhook(acct.webhookSecret).verify(manual.body, manual.headers)).toEqual(auto.json);
  });

  it("turns a failed event into succeeded when the manual attempt succeeds; a failing one changes nothing", async () => {
    answer = 500;
    const id = await createPix(`${r.url}/failed`);
    const start = r.hits.length;
    await runDispatcher(start + 2, [0, 50]);
    const [eventId] = await eventIdsOf(id);
    const [failed] = await getDb().select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    expect(failed.deliveryState).toBe("failed");

    const stillFailing = await redeliver(eventId);
    expect(stillFailing.status).toBe(200);
    expect(stillFailing.body.message).toMatch(/failed/);
    expect(stillFailing.body.data).toMatchObject({ delivered: false, deliveryState: "failed", attemptCount: 3 });
    expect(stillFailing.body.data.attempts[2]).toMatchObject({ number: 3, manual: true, success: false, httpStatus: 500 });

    answer = 200;
    const ok = await redeliver(eventId);
    expect(ok.body.data).toMatchObject({ delivered: true, deliveryState: "succeeded", attemptCount: 4, nextAttemptAt: null });
  });

  it("keeps the order: a pending event cannot overtake an earlier pending one of its transaction", async () => {
    answer = 200;
    const id = await createPix(`${r.url}/order`);
    const pay = await call("PUT", `/api/v1/transactions/${id}/test`, { auth: acct.secretKey, body: { status: "paid" } });
    expect(pay.status).toBe(200);
    const [first, second] = await eventIdsOf(id); // both pending: no dispatcher is running

    const refused = await redeliver(second);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(`waits for event ${first}`);

    const start = r.hits.length;
    expect((await redeliver(first)).body.data).toMatchObject({ delivered: true, deliveryState: "succeeded" });
    expect((await redeliver(second)).body.data).toMatchObject({ delivered: true, deliveryState: "succeeded" });
    expect(r.hits.slice(start).map((h) => h.json.data.status)).toEqual(["pending", "paid"]);
  });

  it("answers 409 while an attempt of the event is in flight", async () => {
    const id = await createPix(`${r.url}/busy`);
    const [eventId] = await eventIdsOf(id);
    await getDb().update(webhookEvents).set({ lockedUntil: new Date(Date.now() + 60_000) }).where(eq(webhookEvents.id, eventId));
    const res = await redeliver(eventId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("conflict");
  });

  it("is scoped to the account and needs a URL", async () => {
    const id = await createPix(`${r.url}/scoped`);
    const [eventId] = await eventIdsOf(id);
    expect((await redeliver(eventId, other)).status).toBe(404);
    expect((await redeliver(987_654_321)).status).toBe(404);
    expect((await redeliver("abc")).status).toBe(404);
    expect((await call("POST", `/api/v1/webhooks/${eventId}/redeliver`, {})).status).toBe(401);

    const silent = await createPix(null);
    const [skipped] = await eventIdsOf(silent);
    const res = await redeliver(skipped);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/postbackUrl/);
  });
});
