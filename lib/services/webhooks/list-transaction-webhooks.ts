import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { webhookAttempts, webhookEvents } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { getTransaction } from "../transactions/get-transaction";
import { getCashOut } from "../cash-outs/get-cash-out";
import { webhookEventView, type WebhookAttemptRow, type WebhookEventRow, type WebhookEventView } from "./webhook-view";

/** Events with their attempts, oldest first (ids and attempts in the order they happened). */
export async function webhookEventsWithAttempts(events: WebhookEventRow[], db: Queryable = getDb()): Promise<WebhookEventView[]> {
  if (!events.length) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.eventId, events.map((e) => e.id)))
    .orderBy(asc(webhookAttempts.id));
  const byEvent = new Map<number, WebhookAttemptRow[]>();
  for (const a of attempts) byEvent.set(a.eventId, [...(byEvent.get(a.eventId) ?? []), a]);
  // The first pending event of each ordering key among those shown: every later pending event of
  // that key waits for it (the dispatcher's order rule).
  const keys = [...new Set(events.filter((e) => e.deliveryState === "pending").map((e) => e.orderingKey))];
  const firstPending = new Map<string, number>();
  if (keys.length) {
    const pending = await db
      .select({ id: webhookEvents.id, orderingKey: webhookEvents.orderingKey })
      .from(webhookEvents)
      .where(and(inArray(webhookEvents.orderingKey, keys), sql`${webhookEvents.deliveryState} = 'pending'` /* a literal: the partial index (lib/webhooks/claim.ts) */))
      .orderBy(asc(webhookEvents.id));
    for (const p of pending) if (!firstPending.has(p.orderingKey)) firstPending.set(p.orderingKey, p.id);
  }
  return events.map((e) => {
    const head = firstPending.get(e.orderingKey);
    return webhookEventView(e, byEvent.get(e.id) ?? [], e.deliveryState === "pending" && head !== undefined && head < e.id ? head : null);
  });
}

/** `GET /api/v1/transactions/{id}/webhooks`: every notification of a transaction of the account (its refunds' too), with its attempts. */
export async function listTransactionWebhooks(
  ctx: Pick<ServiceContext, "account">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<WebhookEventView[]> {
  const t = await getTransaction(ctx, rawId, db);
  const events = await db
    .select()
    .from(webhookEvents)
    // The transaction's status events and the `refund` events of its refunds at the merchant's PSP
    // (one ordering key: they are delivered in this order).
    .where(and(eq(webhookEvents.transactionId, t.id), eq(webhookEvents.companyId, ctx.account.id), inArray(webhookEvents.type, ["transaction", "refund"])))
    .orderBy(asc(webhookEvents.id));
  return webhookEventsWithAttempts(events, db);
}

/** `GET /api/v1/cashOut/{id}/webhooks`: every notification of a cash-out of the account, with its attempts. */
export async function listCashOutWebhooks(
  ctx: Pick<ServiceContext, "account">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<WebhookEventView[]> {
  const c = await getCashOut(ctx, rawId, db);
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.cashOutId, c.id), eq(webhookEvents.companyId, ctx.account.id), eq(webhookEvents.type, "cash_out")))
    .orderBy(asc(webhookEvents.id));
  return webhookEventsWithAttempts(events, db);
}
