import type { WebhookAttemptRow, WebhookEventRow } from "@/lib/core/rows";
import { notificationBody } from "@/lib/webhooks/payloads";

export type { WebhookAttemptRow, WebhookEventRow };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** One delivery attempt as the API and the dashboard show it. */
export function webhookAttemptView(a: WebhookAttemptRow) {
  return {
    number: a.attemptNumber,
    manual: a.manual,
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
 * postbackUrl). `body` is exactly what is POSTed.
 */
export function webhookEventView(e: WebhookEventRow, attempts: WebhookAttemptRow[]) {
  return {
    id: e.id,
    type: e.type,
    status: e.status,
    transactionId: e.transactionId,
    cashOutId: e.cashOutId,
    url: e.url,
    deliveryState: e.deliveryState,
    attemptCount: e.attempts,
    nextAttemptAt: e.deliveryState === "pending" ? iso(e.nextAttemptAt) : null,
    lastAttemptAt: iso(e.lastAttemptAt),
    createdAt: e.createdAt.toISOString(),
    body: notificationBody(e),
    attempts: attempts.map(webhookAttemptView),
  };
}
export type WebhookEventView = ReturnType<typeof webhookEventView>;
