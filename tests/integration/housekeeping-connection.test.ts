/**
 * The maintenance pass's VACUUM and ANALYZE run on a connection of their own on PostgreSQL
 * (lib/db/client.ts, housekeepingDb). postgres.js queues a query behind one already running on a busy
 * connection when the pool has none free; a VACUUM that waits for seconds (here for the lock that
 * truncates a table's empty tail, held by another session) then held every query queued behind it.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { databaseKind, getDb, housekeepingDb } from "@/lib/db/client";
import { startBackgroundJobs } from "@/lib/jobs";
import { rowsOf } from "@/lib/db/rows";

describe("the maintenance pass's connection", () => {
  it("is the one session on the embedded database", () => {
    if (databaseKind() !== "pglite") return void expect(databaseKind()).toBe("postgres");
    expect(housekeepingDb()).toBe(getDb());
  });

  // First in the file: the connection opens on first use and stays until the database is closed.
  it("on PostgreSQL, the background maintenance job runs on it, not on the pool", async () => {
    if (databaseKind() !== "postgres") return void expect(databaseKind()).toBe("pglite");
    const db = getDb();
    const housekeepers = async () =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'arara-housekeeping'`))[0].n;
    expect(await housekeepers()).toBe(0);
    const stop = startBackgroundJobs({ force: true });
    try {
      // The maintenance loop's first pass runs at once; with this server's autovacuum off it does the work, on its connection.
      await expect.poll(housekeepers, { timeout: 10_000, interval: 50 }).toBe(1);
    } finally {
      await stop();
    }
  }, 30_000);

  it("on PostgreSQL, a VACUUM waiting for seconds holds none of the pool's queries behind it", async () => {
    if (databaseKind() !== "postgres") return void expect(databaseKind()).toBe("pglite");
    const db = getDb();
    await db.execute(sql`create table housekeeping_probe (id int primary key, pad text)`);
    await db.execute(sql`insert into housekeeping_probe select g, repeat('x', 200) from generate_series(1, 5000) g`);
    await db.execute(sql`delete from housekeeping_probe`); // an empty tail for VACUUM to truncate
    // Another session holds the table, so VACUUM's truncation waits for its lock (up to 5 s).
    const other = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const holder = await other.reserve();
    await holder`begin`;
    await holder`lock table housekeeping_probe in access share mode`;
    const vacuumPid = rowsOf<{ pid: number }>(await housekeepingDb().execute(sql`select pg_backend_pid() as pid`))[0].pid;
    const vacuum = (async () => housekeepingDb().execute(sql`vacuum housekeeping_probe`))(); // drizzle runs a query when awaited
    const waiting = async () =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_stat_activity where pid = ${vacuumPid} and wait_event = 'VacuumTruncate'`))[0].n;
    try {
      await expect.poll(waiting, { timeout: 4_000, interval: 20 }).toBe(1);
      // Four times the pool's connections at once: without a free one, postgres.js pipelines onto busy ones.
      const pids = await Promise.all(Array.from({ length: 40 }, async () => rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0].pid));
      expect(pids).not.toContain(vacuumPid);
      // Every query was answered while the VACUUM was still waiting for its lock.
      expect(await waiting()).toBe(1);
    } finally {
      await holder`commit`;
      holder.release();
      await other.end();
      await vacuum;
      await db.execute(sql`drop table housekeeping_probe`);
    }
  }, 30_000);
});
