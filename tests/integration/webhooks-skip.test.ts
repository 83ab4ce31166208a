/**
 * An endpoint that is down holds a transaction's later events behind the failing one (delivery is in
 * order). The event list says so truthfully (waitingForEventId, no past "next attempt"), and
 * POST /api/v1/webhooks/{eventId}/skip gives the failing event up so the later ones go at once.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
/** Paths the receiver answers 500 on (an endpoint that is down for those URLs). */
const broken = new Set<string>();

beforeAll(async () => {
  acct = await createTestAccount("Loja Skip");
  other = await createTestAccount("Outra Loja Skip");
  r = await startReceiver((hit) => ({ status: broken.has(hit.json?.url ? new URL(hit.json.url).pathname : "") ? 500 : 200 }));
});

afterAll(async () => {
  await r.close();
});

async function createPix(postbackUrl: string | null): Promise<number> {
  const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(postbackUrl, 1000) });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function events(id: number): Promise<any[]> {
  const res = await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: acct.secretKey });
  expect(res.status).toBe(200);
  return res.body.data;
}

const skip = (eventId: number | string, account = acct) => call("POST", `/api/v1/webhooks/${eventId}/skip`, { auth: account.secretKey });

async function pay(id: number) {
  const res = await call("PUT", `/api/v1/transactions/${id}/test`, { auth: acct.secretKey, body: { status: "paid" } });
  expect(res.status, res.text).toBe(200);
}

describe("a transaction's events behind a failing one", () => {
  it("shows the later event waiting for the failing one, not a next attempt in the past", async () => {
    broken.add("/down-view");
    const id = await createPix(`${r.url}/down-view`);
    await pay(id);
    // The first attempt of `pending` fails; the schedule's next one is an hour away.
    const d = startDispatcher({ scheduleMs: [0, 3_600_000], pollMs: 20, timeoutMs: 2000 });
    try {
      await r.waitFor(() => r.hits.some((h) => h.json?.data?.id === id), 10_000, "the pending event's first attempt");
      await new Promise((res) => setTimeout(res, 200));
    } finally {
      await d.stop();
    }
    const [pending, paid] = await events(id);
    expect(pending).toMatchObject({ status: "pending", deliveryState: "pending", attemptCount: 1, waitingForEventId: null });
    expect(new Date(pending.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(paid).toMatchObject({ status: "paid", deliveryState: "pending", attemptCount: 0, nextAttemptAt: null, waitingForEventId: pending.id });
    expect(r.hits.filter((h) => h.json?.data?.id === id).map((h) => h.json.data.status)).toEqual(["pending"]);
  });

  it("skipping the failing event abandons it, logs the skip and lets the later event go at once", async () => {
    broken.add("/down-skip");
    const id = await createPix(`${r.url}/down-skip`);
    await pay(id);
    const d = startDispatcher({ scheduleMs: [0, 3_600_000], pollMs: 20, timeoutMs: 2000 });
    try {
      await r.waitFor(() => r.hits.some((h) => h.json?.data?.id === id), 10_000, "the pending event's first attempt");
      await new Promise((res) => setTimeout(res, 200));
      const [first, second] = await events(id);
      expect(second.waitingForEventId).toBe(first.id);

      broken.delete("/down-skip"); // the endpoint is back: `paid` would succeed, but it waits for `pending`
      const res = await skip(first.id);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ id: first.id, deliveryState: "abandoned", attemptCount: 1, nextAttemptAt: null, waitingForEventId: null });
      expect(res.body.data.attempts.map((a: any) => [a.kind, a.manual, a.success, a.httpStatus])).toEqual([
        ["delivery", false, false, 500],
        ["skip", true, false, null],
      ]);

      await r.waitFor(() => r.hits.some((h) => h.json?.data?.id === id && h.json.data.status === "paid"), 10_000, "the paid event");
    } finally {
      await d.stop();
    }
    const [first, second] = await events(id);
    expect(first.deliveryState).toBe("abandoned");
    expect(second).toMatchObject({ deliveryState: "succeeded", attemptCount: 1, waitingForEventId: null });
    // `pending` was never sent again after the skip.
    expect(r.hits.filter((h) => h.json?.data?.id === id).map((h) => [h.json.data.status, h.answered])).toEqual([
      ["pending", 500],
      ["paid", 200],
    ]);

    // A second skip changes nothing (no second log entry); the abandoned event can still be redelivered by hand.
    const again = await skip(first.id);
    expect(again.status).toBe(200);
    expect(again.body.data.attempts).toHaveLength(2);
    const redelivered = await call("POST", `/api/v1/webhooks/${first.id}/redeliver`, { auth: acct.secretKey });
    expect(redelivered.body.data).toMatchObject({ delivered: true, deliveryState: "succeeded" });
  });

  it("refuses a delivered event, an event without a URL, another account's event, and answers 409 mid-attempt", async () => {
    const id = await createPix(`${r.url}/fine`);
    const [pending] = await events(id);
    // In flight: an attempt holds the lease.
    await getDb().update(webhookEvents).set({ lockedUntil: new Date(Date.now() + 60_000) }).where(eq(webhookEvents.id, pending.id));
    const busy = await skip(pending.id);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("conflict");
    await getDb().update(webhookEvents).set({ lockedUntil: null }).where(eq(webhookEvents.id, pending.id));

    expect((await call("POST", `/api/v1/webhooks/${pending.id}/redeliver`, { auth: acct.secretKey })).body.data.deliveryState).toBe("succeeded");
    const delivered = await skip(pending.id);
    expect(delivered.status).toBe(422);
    expect(delivered.body.message).toMatch(/already delivered/);

    const silent = await createPix(null);
    const [noUrl] = await events(silent);
    const none = await skip(noUrl.id);
    expect(none.status).toBe(422);
    expect(none.body.message).toMatch(/postbackUrl/);

    expect((await skip(pending.id, other)).status).toBe(404);
    expect((await skip("abc")).status).toBe(404);
    expect((await call("POST", `/api/v1/webhooks/${pending.id}/skip`, {})).status).toBe(401);
  });
});
