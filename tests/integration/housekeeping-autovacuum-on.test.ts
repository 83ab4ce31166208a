/**
 * Where the server's autovacuum runs (a production PostgreSQL), the background maintenance job does
 * nothing, and it asks on the pool: the process never opens the maintenance pass's own connection
 * (lib/jobs.ts). This suite's server has autovacuum off, so the setting's answer is replaced here; the
 * job, its connections and the database are real.
 */
import { describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";

const calls = vi.hoisted(() => ({ asked: 0, maintained: 0 }));
vi.mock("@/lib/db/maintenance", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/db/maintenance")>();
  return {
    ...real,
    autovacuumRuns: async () => {
      calls.asked++;
      return true;
    },
    maintainDatabase: async (...args: Parameters<typeof real.maintainDatabase>) => {
      calls.maintained++;
      return real.maintainDatabase(...args);
    },
  };
});

const { databaseKind, getDb } = await import("@/lib/db/client");
const { startBackgroundJobs } = await import("@/lib/jobs");
const { rowsOf } = await import("@/lib/db/rows");

describe("the maintenance job where the server's autovacuum runs", () => {
  it("on PostgreSQL does nothing and opens no connection of its own; on PGlite (no autovacuum workers) still does the work", async () => {
    const db = getDb();
    const housekeepers = async () =>
      databaseKind() === "postgres"
        ? rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'arara-housekeeping'`))[0].n
        : 0;
    expect(await housekeepers()).toBe(0);
    const stop = startBackgroundJobs({ force: true });
    try {
      if (databaseKind() === "postgres") {
        // The loop's first pass runs at once and asks the setting (on the pool).
        await expect.poll(() => calls.asked, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(1);
        expect(calls.maintained).toBe(0);
        expect(await housekeepers()).toBe(0);
      } else {
        await expect.poll(() => calls.maintained, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(1);
        expect(calls.asked).toBe(0);
      }
    } finally {
      await stop();
    }
    // After the loop stopped (its pass in flight finished): still nothing on PostgreSQL.
    if (databaseKind() === "postgres") {
      expect(calls.maintained).toBe(0);
      expect(await housekeepers()).toBe(0);
    }
  }, 60_000);
});
