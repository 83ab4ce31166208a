/**
 * Wake on commit (lib/webhooks/wake.ts): an outbox event to deliver is announced on the outbox
 * channel when, and only when, its database transaction commits, and a dispatcher listening to the
 * channel claims it then instead of at its next poll. Real route handlers, this file's database
 * (PGlite in-process, or PostgreSQL's LISTEN/NOTIFY), a real HTTP receiver.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions, webhookEvents } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { startDispatcher, type Dispatcher } from "@/lib/webhooks/dispatcher";
import { enqueueTransactionEvent } from "@/lib/webhooks/outbox";
import { listenOutbox } from "@/lib/webhooks/wake";

let acct: CreatedAccount;
let receiver: Receiver | undefined;
let dispatcher: Dispatcher | undefined;

beforeAll(async () => {
  acct = await createTestAccount("Loja Wake");
});

afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
  await receiver?.close();
  receiver = undefined;
});

afterAll(async () => {
  await dispatcher?.stop();
});

async function createPix(postbackUrl: string | null): Promise<number> {
  const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(postbackUrl) });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

class Rollback extends Error {}

describe("outbox notifications", () => {
  it("announce an event to deliver after its transaction commits, and never one that was rolled back", async () => {
    const db = getDb();
    const got: number[] = [];
    const unlisten = await listenOutbox(db, (id) => got.push(id));
    try {
      const txId = await createPix(null);
      const [t] = await db.select().from(transactions).where(eq(transactions.id, txId));
      const withUrl = { ...t, postbackUrl: "http://127.0.0.1:9/hook" };

      // Rolled back: the row and its notification go together.
      let rolledBack = 0;
      await expect(
        db.transaction(async (tx) => {
          rolledBack = await enqueueTransactionEvent(tx, withUrl, "paid", new Date());
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
      expect(await db.select().from(webhookEvents).where(eq(webhookEvents.id, rolledBack))).toEqual([]);

      // Committed: announced, with its id, once the transaction is over.
      let committed = 0;
      await db.transaction(async (tx) => {
        committed = await enqueueTransactionEvent(tx, withUrl, "paid", new Date());
        expect(got).not.toContain(committed);
      });
      await vi.waitFor(() => expect(got).toContain(committed), { timeout: 10_000 });
      // Notifications arrive in commit order: had the rolled-back one been sent, it would be here first.
      expect(got).not.toContain(rolledBack);
      expect(got[0]).toBe(committed);

      // An event with nothing to deliver (no postbackUrl) wakes nobody.
      const quiet = await createPix(null);
      const viaApi = await createPix("http://127.0.0.1:9/hook");
      const announced = (await eventOf(viaApi)).id;
      await vi.waitFor(() => expect(got).toContain(announced), { timeout: 10_000 });
      const quietEvent = await eventOf(quiet);
      expect(quietEvent.deliveryState).toBe("skipped");
      expect(got).not.toContain(quietEvent.id);
    } finally {
      await unlisten();
    }
  });
});

async function eventOf(transactionId: number) {
  const [e] = await getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, transactionId));
  return e;
}

describe("dispatcher wake on commit", () => {
  it("claims and delivers a new event when it is committed, with its next poll minutes away", async () => {
    const r = (receiver = await startReceiver());
    // After its first (empty) claim the loop would sleep 10 minutes: only the wake can bring it back.
    dispatcher = startDispatcher({ scheduleMs: [0, 60_000], timeoutMs: 2000, pollMs: 600_000 });
    await dispatcher.listening;
    const id = await createPix(r.url);
    await r.waitFor(() => r.hits.some((h) => h.json?.data?.id === id), 10_000, "the creation webhook");
    expect(dispatcher.wakes()).toBeGreaterThanOrEqual(1);
    const [e] = await getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, id));
    await vi.waitFor(async () => {
      const [now] = await getDb().select().from(webhookEvents).where(eq(webhookEvents.id, e.id));
      expect(now.deliveryState).toBe("succeeded");
    });
  });
});
