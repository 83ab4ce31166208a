/**
 * A PIX charge is written by one statement (lib/executor/create-in-one-statement.ts): the transaction,
 * its timeline entry and its outbox event, the event's payload equal to the one built from the stored
 * row, all of it or nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { insertTransactionWithCreation, reserveTransactionId } from "@/lib/executor/create-in-one-statement";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { transactionEventData } from "@/lib/webhooks/payloads";

let acct: CreatedAccount;

beforeAll(async () => {
  acct = await createTestAccount("Loja Um Comando");
});

describe("PIX creation in one statement", () => {
  for (const postbackUrl of [null, "https://example.com/hooks/arara"]) {
    it(`stores the transaction, its timeline entry and its outbox event (${postbackUrl ? "with" : "without"} postbackUrl)`, async () => {
      const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: { ...pixCharge(postbackUrl, 2345), metadata: "m-1", externalRef: "ext-1" } });
      expect(res.status, res.text).toBe(201);
      const id = res.body.data.id;
      const db = getDb();
      const [row] = await db.select().from(transactions).where(eq(transactions.id, id));
      expect(row).toMatchObject({ status: "pending", amount: 2345, paidAmount: 0, refundedAmount: 0, metadata: "m-1", externalRef: "ext-1" });
      expect(row.pixQrcode).toBe(res.body.data.pix.qrcode);
      expect(row.pixTxid).toContain(String(id));
      const timeline = await db.select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id));
      expect(timeline).toEqual([expect.objectContaining({ fromStatus: null, toStatus: "pending", cause: "created", amount: 2345 })]);
      const events = await db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, id));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ status: "pending", url: postbackUrl, deliveryState: postbackUrl ? "pending" : "skipped", orderingKey: `transaction:${id}` });
      // The payload built before the statement is the one the stored row gives.
      expect(events[0].payload).toEqual(JSON.parse(JSON.stringify(transactionEventData(row, "pending"))));
    });
  }

  it("writes nothing when one of its parts fails", async () => {
    const db = getDb();
    const id = await reserveTransactionId(db);
    const [model] = await db.select().from(transactions).limit(1);
    const values = { ...model, id, secureId: model.secureId, status: "pending" as const }; // secure id taken: the insert fails
    await expect(insertTransactionWithCreation(db, { actor: "test", now: new Date() }, values)).rejects.toThrow();
    expect(await db.select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id))).toEqual([]);
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, id))).toEqual([]);
    expect(await db.select().from(transactions).where(eq(transactions.id, id))).toEqual([]);
  });
});
