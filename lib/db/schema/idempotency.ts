import { bigint, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Idempotency-Key records: the first response is replayed for 24 h. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    companyId: bigint({ mode: "number" }).notNull(),
    /** "POST /api/v1/transactions": one key may be reused across different operations. */
    scope: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    state: text().notNull(), // in_progress | completed
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.scope, t.key] })],
);
