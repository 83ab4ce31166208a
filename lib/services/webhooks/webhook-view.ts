import type { WebhookAttemptRow, WebhookEventRow } from "@/lib/core/rows";
import { notificationBody } from "@/lib/webhooks/payloads";

export type { WebhookAttemptRow, WebhookEventRow };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** One delivery attempt as the API and the dashboard show it. */
export function webhookAttemptView(a: WebhookAttemptRow) {
  return {
    number: a.attemptNumber,
    manual: a.manual,
    kind: a.kind === "skip" ? ("skip" as const) : ("delivery" as const),
    url: a.url,
    success: a.success,
    httpStatus: a.httpStatus,
    durationMs: a.durationMs,
    error: a.error,
    responseExcerpt: a.responseExcerpt,
    createdAt: a.createdAt.toISOString(),
  };
}

/**
 * A notification and its delivery log. `deliveryState`: pending (waiting for its next attempt or for an
 * earlier event of the same transaction), succeeded, failed (the retry schedule ran out), skipped (no
 * postbackUrl), abandoned (given up by the merchant). `body` is exactly what is POSTed.
 *
 * `waitingForEventId`: the earlier pending event of the same transaction (or cash-out) this one waits
 * for. Its stored `nextAttemptAt` is then only the earliest it may go (often its creation, long past),
 * not when it will: it goes right after that event is delivered, fails for good or is skipped. So the
 * view shows no next attempt time for it, only what it waits for.
 */
export function webhookEventView(e: WebhookEventRow, attempts: WebhookAttemptRow[], waitingForEventId: number | null = null) {
  return {
    id: e.id,
    type: e.type,
    status: e.status,
    transactionId: e.transactionId,
    cashOutId: e.cashOutId,
    url: e.url,
    deliveryState: e.deliveryState,
    attemptCount: e.attempts,
    nextAttemptAt: e.deliveryState === "pending" && waitingForEventId === null ? iso(e.nextAttemptAt) : null,
    waitingForEventId: e.deliveryState === "pending" ? waitingForEventId : null,
    lastAttemptAt: iso(e.lastAttemptAt),
    createdAt: e.createdAt.toISOString(),
    body: notificationBody(e),
    attempts: attempts.map(webhookAttemptView),
  };
}
export type WebhookEventView = ReturnType<typeof webhookEventView>;
