/**
 * A charge is written by one statement (lib/executor/create-in-one-statement.ts): the transaction,
 * its timeline entry, its outbox event and, for an approved card, its journal; the event's payload and
 * the row returned equal to what is stored, all of it or nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { asc, eq, inArray } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { expectBooksAgree, paidCard } from "../helpers/money";
import { getDb } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { executeTransaction } from "@/lib/executor/execute";
import { webhookEventKind } from "@/lib/domain/status";
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

  it("returns the row as it is stored", async () => {
    const db = getDb();
    const id = await reserveTransactionId(db);
    const [model] = await db.select().from(transactions).limit(1);
    const values = { ...model, id, secureId: crypto.randomUUID(), status: "pending" as const, metadata: "as stored", updatedAt: new Date(), createdAt: new Date() };
    const returned = await insertTransactionWithCreation(db, { actor: "test", now: new Date() }, values);
    const [stored] = await db.select().from(transactions).where(eq(transactions.id, id));
    expect(returned).toEqual(stored);
  });
});

/** What a creation left in the timeline, the outbox and the books, without the ids that differ. */
async function writtenFor(transactionId: number) {
  const db = getDb();
  const timeline = await db.select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, transactionId));
  const events = await db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, transactionId));
  const journals = await db.select().from(ledgerJournals).where(eq(ledgerJournals.transactionId, transactionId));
  const postings = await db
    .select({ owner: ledgerAccounts.companyId, account: ledgerAccounts.kind, entryType: ledgerPostings.entryType, amount: ledgerPostings.amount })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .where(inArray(ledgerPostings.journalId, journals.length ? journals.map((j) => j.id) : [-1]))
    .orderBy(asc(ledgerPostings.id));
  const sans = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !["id", "transactionId", "orderingKey", "payload", "description", "createdAt", "nextAttemptAt"].includes(k)));
  return { timeline: timeline.map(sans), events: events.map(sans), journals: journals.map(sans), postings };
}

describe("an approved card in one statement", () => {
  it("writes its timeline entry, its event and its journal as the executor's transaction does", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Cartão Um Comando");
    const card = await paidCard(a, 15_000, 3);
    const [row] = await db.select().from(transactions).where(eq(transactions.id, card.id));
    const viaStatement = await writtenFor(card.id);
    expect(viaStatement.journals).toHaveLength(1);
    expect(viaStatement.postings.length).toBeGreaterThan(1);
    expect(viaStatement.postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);

    // The same charge through executeTransaction, on the same account.
    const id = await reserveTransactionId(db);
    await db.transaction(async (tx) => {
      const [copy] = await tx.insert(transactions).overridingSystemValue().values({ ...row, id, secureId: crypto.randomUUID() }).returning();
      await executeTransaction(tx, { actor: viaStatement.timeline[0].actor as string, now: row.createdAt }, { cause: "created", transaction: copy, facts: {} });
    });
    expect(viaStatement).toEqual(await writtenFor(id));
    const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, card.id));
    expect(event.payload).toEqual(JSON.parse(JSON.stringify(transactionEventData(row, webhookEventKind("credit_card", "paid", { isCreation: true })))));
    await expectBooksAgree(a);
  });

  it("an account whose ledger accounts are not there yet gets them with its first approved card", async () => {
    const db = getDb();
    const a = await createTestAccount("Loja Cartão Sem Contas");
    await db.delete(ledgerAccounts).where(eq(ledgerAccounts.companyId, a.companyId));
    const card = await paidCard(a, 10_000);
    expect((await writtenFor(card.id)).journals).toHaveLength(1);
    expect((await expectBooksAgree(a)).total).toBeGreaterThan(0);
  });
});
