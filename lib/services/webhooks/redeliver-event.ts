import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import { attemptDelivery, dispatcherOptionsFromEnv, leaseMsFor, recordAttempts } from "@/lib/webhooks/dispatcher";
import { revealWebhookSecret } from "../accounts/accounts";
import type { ServiceContext } from "../context";
import { notFound, ServiceError, unprocessable } from "../errors";
import { webhookEventsWithAttempts } from "./list-transaction-webhooks";
import type { WebhookEventView } from "./webhook-view";
import { idOrNotFound } from "@/lib/core/ids";

export type RedeliveryResult = WebhookEventView & { delivered: boolean };

/**
 * `POST /api/v1/webhooks/{eventId}/redeliver`: sends an event again now, in the request, as a manual
 * attempt (logged with `manual: true`). Any state may be redelivered; a success moves a pending or
 * failed event to `succeeded` (which also releases the events queued behind it). A failure changes
 * nothing: a pending event keeps its retry schedule.
 *
 * Order is kept: a pending event whose earlier event (same transaction) is still pending is refused
 * (422), since sending it would overtake that one. The event is leased like the dispatcher does, so a
 * redelivery and an automatic attempt never run at once (409 if one is in flight).
 */
export async function redeliverEvent(ctx: Pick<ServiceContext, "account">, rawEventId: string | number): Promise<RedeliveryResult> {
  const db = getDb();
  const id = idOrNotFound(rawEventId, "Webhook event");
  const mine = and(eq(webhookEvents.id, id), eq(webhookEvents.companyId, ctx.account.id));
  const [event] = await db.select().from(webhookEvents).where(mine).limit(1);
  if (!event) throw notFound("Webhook event");
  if (!event.url) {
    throw unprocessable(`Webhook event ${id} has no URL to deliver to: it was created without a postbackUrl.`);
  }
  if (event.deliveryState === "pending") {
    const [earlier] = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.orderingKey, event.orderingKey), lt(webhookEvents.id, id), sql`${webhookEvents.deliveryState} = 'pending'` /* a literal: the partial index (lib/webhooks/claim.ts) */))
      .orderBy(asc(webhookEvents.id))
      .limit(1);
    if (earlier) {
      throw unprocessable(
        `Webhook event ${id} waits for event ${earlier.id} of the same ${event.type === "cash_out" ? "cash-out" : "transaction"}; events are delivered in order, so redeliver or skip ${earlier.id} first.`,
      );
    }
  }

  const secret = revealWebhookSecret(ctx.account);
  const opts = dispatcherOptionsFromEnv();
  const now = new Date();
  const [leased] = await db
    .update(webhookEvents)
    .set({ lockedUntil: new Date(now.getTime() + leaseMsFor(opts.timeoutMs)) })
    .where(and(mine, or(isNull(webhookEvents.lockedUntil), lt(webhookEvents.lockedUntil, now))))
    .returning();
  if (!leased) {
    throw new ServiceError("conflict", `Webhook event ${id} is being delivered right now; try again in a few seconds.`);
  }

  const result = await attemptDelivery(leased, secret, now, opts.timeoutMs);
  await recordAttempts(db, [{ event: leased, result, at: new Date(now.getTime() + result.durationMs) }], {
    manual: true,
    scheduleMs: opts.scheduleMs,
  });

  const [after] = await db.select().from(webhookEvents).where(mine).limit(1);
  const [view] = await webhookEventsWithAttempts([after], db);
  return { ...view, delivered: result.success };
}
