import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { webhookAttempts, webhookEvents } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { notFound, ServiceError, unprocessable } from "../errors";
import { webhookEventsWithAttempts } from "./list-transaction-webhooks";
import type { WebhookEventView } from "./webhook-view";

/**
 * `POST /api/v1/webhooks/{eventId}/skip`: gives an event up. Events of one transaction are delivered
 * in order, so an event that keeps failing (an endpoint that is down, a URL that never answers) holds
 * every later event of its transaction for the whole retry schedule (about 28 h). Skipping it marks it
 * `abandoned`: no more automatic attempts, and the events queued behind it are released at once.
 *
 * Allowed on a `pending` or `failed` event; the skip is written to the delivery log (an entry of kind
 * `skip`, no request sent) in the same database transaction. Skipping an `abandoned` event again changes
 * nothing. A delivered event, or one without a URL, is a 422; 409 while an attempt is in flight (the
 * attempt's result would otherwise race the skip). An abandoned event can still be redelivered by hand.
 */
export async function skipWebhookEvent(ctx: Pick<ServiceContext, "account" | "now">, rawEventId: string | number): Promise<WebhookEventView> {
  const db = getDb();
  const id = typeof rawEventId === "number" ? rawEventId : /^\d{1,15}$/.test(rawEventId) ? Number(rawEventId) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound("Webhook event");
  const mine = and(eq(webhookEvents.id, id), eq(webhookEvents.companyId, ctx.account.id));
  const now = ctx.now;

  const row = await db.transaction(async (tx) => {
    const [event] = await tx.select().from(webhookEvents).where(mine).for("update").limit(1);
    if (!event) throw notFound("Webhook event");
    if (event.deliveryState === "abandoned") return event;
    if (event.deliveryState === "succeeded") throw unprocessable(`Webhook event ${id} was already delivered; there is nothing to skip.`);
    if (!event.url || event.deliveryState === "skipped") {
      throw unprocessable(`Webhook event ${id} has no URL to deliver to (the transaction has no postbackUrl); it is never sent.`);
    }
    if (event.lockedUntil && event.lockedUntil > now) {
      throw new ServiceError("conflict", `Webhook event ${id} is being delivered right now; try again in a few seconds.`);
    }
    const [updated] = await tx
      .update(webhookEvents)
      .set({ deliveryState: "abandoned", nextAttemptAt: null, lockedUntil: null })
      .where(and(mine, inArray(webhookEvents.deliveryState, ["pending", "failed"]), or(isNull(webhookEvents.lockedUntil), lt(webhookEvents.lockedUntil, now))))
      .returning();
    if (!updated) throw new ServiceError("conflict", `Webhook event ${id} changed while it was being skipped; read it again.`);
    await tx.insert(webhookAttempts).values({
      eventId: id,
      // The number of delivery attempts made before the skip: a skip is not an attempt.
      attemptNumber: event.attempts,
      manual: true,
      kind: "skip",
      url: event.url,
      httpStatus: null,
      durationMs: 0,
      success: false,
      error: null,
      responseExcerpt: null,
      createdAt: now,
    });
    return updated;
  });

  const [view] = await webhookEventsWithAttempts([row], db);
  return view;
}
