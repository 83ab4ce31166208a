import { bigint, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Idempotency-Key records: the first response, replayed for 24 h. A row is written in the same
 * database transaction as the operation it answers (lib/http/idempotency.ts), so it exists only for
 * an operation that committed: there is no "in progress" row that a crash could leave behind.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    companyId: bigint({ mode: "number" }).notNull(),
    /**
     * The operation: "POST /api/v1/transactions/123/refund" (method and canonical route, resource id
     * included), or a dashboard form's "dashboard cash-out". One key may serve different operations.
     */
    scope: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    /** Null only on a claim left by a version that claimed keys before running: read as absent. */
    responseStatus: integer(),
    responseContentType: text(),
    /**
     * The body exactly as it was sent (text, not jsonb, which would reorder keys and respace it). No
     * planner statistics (migration 0015).
     */
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.scope, t.key] })],
);
