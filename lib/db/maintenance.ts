import { rowsOf } from "./rows";
import { sql } from "drizzle-orm";
import type { Db } from "./client";

/**
 * Autovacuum's work where autovacuum does not run. PGlite runs PostgreSQL as one process without its
 * background workers, so autovacuum never runs there, and a PostgreSQL server may have it turned off
 * (`autovacuum = off`, as some test servers do). Without it statistics are never gathered (the planner then takes a
 * table of thousands of rows for an empty one and reads a list page by sorting all of an account's
 * rows instead of reading 20 from an index), dead rows are never reclaimed, and nothing freezes old
 * transaction ids before wraparound. This pass does what autovacuum would, with PostgreSQL's default
 * thresholds, from the statistics PostgreSQL keeps (pg_stat_user_tables):
 * - VACUUM (ANALYZE) a table whose dead rows exceed 50 + 20 % of its live rows, or whose oldest
 *   unfrozen transaction id is older than 150 million (vacuum_freeze_table_age: the VACUUM is then
 *   an aggressive one that freezes);
 * - ANALYZE a table with more than 50 + 10 % of its live rows inserted, updated or deleted since its
 *   last analysis.
 * On the embedded database every statement runs on the app's one thread, so requests wait while a
 * table is vacuumed: milliseconds for tables of this size, and VACUUM skips the pages it already
 * found all-visible. A PostgreSQL server with autovacuum on does all this itself: the job then does
 * nothing (`autovacuumRuns`).
 * Each step says how long it took: on the embedded database, how long requests waited for it. The wide
 * columns nothing filters by have no statistics to gather (migration 0015).
 */
export type MaintenanceStep = { table: string; action: "vacuum" | "analyze"; ms: number };

export const FREEZE_AGE = 150_000_000;

export async function maintainDatabase(db: Db): Promise<MaintenanceStep[]> {
  const result = (await db.execute(sql`
    select quote_ident(s.relname) as "table",
      (s.n_dead_tup > 50 + 0.2 * s.n_live_tup or age(c.relfrozenxid) > ${FREEZE_AGE}) as vacuum,
      s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup as analyze
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public'
    order by s.relname`)) as unknown;
  const rows = rowsOf<{ table: string; vacuum: boolean; analyze: boolean }>(result);
  const steps: MaintenanceStep[] = [];
  for (const r of rows) {
    // The name comes from the catalog, quoted by quote_ident; VACUUM takes no bind parameter.
    if (!r.vacuum && !r.analyze) continue;
    const action = r.vacuum ? "vacuum" : "analyze";
    const started = performance.now();
    await db.execute(sql.raw(r.vacuum ? `vacuum (analyze) ${r.table}` : `analyze ${r.table}`));
    steps.push({ table: r.table, action, ms: Math.round(performance.now() - started) });
  }
  return steps;
}

/** Whether the server's autovacuum runs (PostgreSQL's `autovacuum` setting; PGlite has none). */
export async function autovacuumRuns(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`select current_setting('autovacuum') = 'on' as on`)) as unknown;
  return rowsOf<{ on: boolean }>(result)[0].on;
}
