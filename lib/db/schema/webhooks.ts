import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { COLUMN_VALUES, oneOf } from "./enum-checks";

/**
 * The outbox: one row per notification, written in the same database transaction as the change it
 * reports. `id` is the notification id sent as the body's `id` and the `webhook-id` header.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ startWith: 1 }),
    companyId: bigint({ mode: "number" }).notNull(),
    type: text().notNull(), // transaction | cash_out | refund
    transactionId: bigint({ mode: "number" }),
    cashOutId: bigint({ mode: "number" }),
    /** Events with the same key are delivered in id order: "transaction:123", "cash_out:7". */
    orderingKey: text().notNull(),
    status: text().notNull(), // the event kind (data.status)
    url: text(), // null: nothing to deliver (no postbackUrl), kept for the timeline
    /** No planner statistics (migration 0015: ANALYZE skips it; nothing filters by it). */
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** 'v1': POSTed in the family's shape { id, type, objectId, url, data } (lib/webhooks/payloads.ts). */
    dialect: text().notNull().default("api"),
    deliveryState: text().notNull(), // pending | succeeded | failed | skipped (no URL) | abandoned (skipped by the merchant)
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true, mode: "date" }),
    lockedUntil: timestamp({ withTimezone: true, mode: "date" }),
    lastAttemptAt: timestamp({ withTimezone: true, mode: "date" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_events_due_idx").on(t.nextAttemptAt).where(sql`${t.deliveryState} = 'pending'`),
    // The dispatcher's order check ("no earlier pending event with this key") probes only pending rows,
    // and so does every other read by ordering key: no index over all events by key (migration 0014).
    index("webhook_events_pending_order_idx").on(t.orderingKey, t.id).where(sql`${t.deliveryState} = 'pending'`),
    // An event belongs to a transaction or to a cash-out: each index holds only the rows it can find
    // (every read is `= id`), so an insert writes one of the two, not both.
    index("webhook_events_tx_idx").on(t.transactionId).where(sql`${t.transactionId} is not null`),
    index("webhook_events_cash_out_idx").on(t.cashOutId).where(sql`${t.cashOutId} is not null`),
    check("webhook_events_dialect_check", sql`${t.dialect} in ('api', 'v1')`),
    check("webhook_events_type_check", oneOf(t.type, COLUMN_VALUES.webhookType)),
    check("webhook_events_delivery_state_check", oneOf(t.deliveryState, COLUMN_VALUES.deliveryState)),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: bigint({ mode: "number" }).notNull().references(() => webhookEvents.id),
    attemptNumber: integer().notNull(),
    manual: boolean().notNull().default(false),
    /** `delivery`: an HTTP attempt. `skip`: the merchant gave the event up (no request was sent). */
    kind: text().notNull().default("delivery"),
    url: text().notNull(),
    httpStatus: integer(),
    durationMs: integer().notNull(),
    success: boolean().notNull(),
    // error and responseExcerpt: no planner statistics (migration 0015).
    error: text(),
    responseExcerpt: text(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_event_idx").on(t.eventId, t.id)],
);
