import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Facts about this installation that must hold across processes and restarts, one row each (today
 * `key_encryption_check`: lib/db/key-check.ts).
 */
export const instanceFacts = pgTable("instance_facts", {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
