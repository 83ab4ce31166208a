import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Request counters for rate limits and the sign-in throttle, one row per limit and key (the key is a
 * hash: no address or e-mail is stored in clear). Fixed windows: `hits` counts the requests since
 * `windowStart`; the first request of a new window starts the count again. Counted with one atomic
 * upsert (lib/http/rate-limit.ts), so every process behind a balancer shares the same count.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true, mode: "date" }).notNull(),
  hits: integer().notNull(),
  /** End of the window: rows past it are dead and deleted now and then. */
  expiresAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
});
