import type { WebhookEventView } from "./webhook-view";

/** A webhook event as the dashboard shows it (transaction and cash-out pages), with what the merchant may do with it. */
export type DashboardWebhookItem = WebhookEventView & {
  /**
   * Only the event that holds the others (or a failed one) may be skipped: skipping one that
   * merely waits frees nothing.
   */
  skippable: boolean;
  /** The next attempt is due now (its time has come), rather than at `nextAttemptAt`. */
  nextAttemptDue: boolean;
};

/** The events with the rules of what the dashboard offers on each (transaction and cash-out pages). */
export function dashboardWebhookItems(events: WebhookEventView[], now: Date): DashboardWebhookItem[] {
  return events.map((e) => ({
    ...e,
    skippable: (e.deliveryState === "pending" && e.waitingForEventId === null) || e.deliveryState === "failed",
    nextAttemptDue: e.nextAttemptAt !== null && new Date(e.nextAttemptAt).getTime() <= now.getTime(),
  }));
}
