import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { startDispatcher } from "@/lib/webhooks/dispatcher";
import { cardSettlementJob, receiptJob, sandboxPayoutsJob } from "@/lib/money-jobs";
import { apiPixReconcileJob } from "@/lib/psp-jobs";
import { databaseKind, getDb, housekeepingDb } from "@/lib/db/client";
import { autovacuumRuns, maintainDatabase } from "@/lib/db/maintenance";
import { pollingLoop } from "@/lib/money-jobs";

/** A stop function may return a promise: the loop finishes its work in flight before it resolves. */
type Job = { name: string; enabled: () => boolean; start: () => () => void | Promise<void> };

/**
 * Background loops that run in the app process (unless BACKGROUND_JOBS=off) or in `npm run worker`.
 * Each loop claims its work with FOR UPDATE SKIP LOCKED, so any number of processes may run them.
 */
export type { Job };
const JOBS: Job[] = [
  {
    name: "webhook-dispatcher",
    enabled: () => getEnv().webhookDispatcher,
    start: () => startDispatcher().stop,
  },
  cardSettlementJob,
  sandboxPayoutsJob,
  apiPixReconcileJob,
  receiptJob,
  {
    // Autovacuum's work where autovacuum does not run (lib/db/maintenance.ts): always on the embedded
    // database, and on a PostgreSQL server with autovacuum off (asked on every pass; a warning once).
    // Checked every 10 s (one read of pg_stat_user_tables when nothing is due): a table that grew from
    // nothing is analyzed seconds after, not a minute after, and until then its list pages are sorted.
    name: "database-maintenance",
    enabled: () => true,
    start: () => {
      let warned = false;
      return pollingLoop("database-maintenance", 10_000, async () => {
        // The server's setting is asked on the pool: where autovacuum runs (a production server), the
        // pass does nothing and the process never opens the maintenance connection. PGlite reports it
        // on but has no workers to act on it.
        if (databaseKind() === "postgres" && (await autovacuumRuns(getDb()))) return 0;
        // Its own connection on PostgreSQL: a long VACUUM holds no request's query behind it (lib/db/client.ts).
        const steps = await maintainDatabase(housekeepingDb());
        if (databaseKind() === "postgres" && !warned) {
          warned = true;
          getLogger().warn("autovacuum is off on this PostgreSQL server: the app analyzes and vacuums its tables instead; turn autovacuum on");
        }
        if (steps.length) getLogger().info({ steps }, "database maintained");
        return 0;
      });
    },
  },
];

const g = globalThis as unknown as { __araraJobs?: (() => void | Promise<void>)[] };

export function startBackgroundJobs(opts: { force?: boolean } = {}): () => Promise<void> {
  if (g.__araraJobs) return () => stopAll();
  const env = getEnv();
  g.__araraJobs = [];
  for (const job of JOBS) {
    if (!opts.force && (!env.backgroundJobs || !job.enabled())) continue;
    g.__araraJobs.push(job.start());
    getLogger().info({ job: job.name }, "background job started");
  }
  return () => stopAll();
}

/**
 * Stops every loop of this process and resolves when each has finished its current batch (the
 * dispatcher: its deliveries in flight, with their attempts recorded). Used by the clean shutdown.
 */
export function stopBackgroundJobs(): Promise<void> {
  return stopAll();
}

async function stopAll(): Promise<void> {
  const stops = g.__araraJobs ?? [];
  g.__araraJobs = undefined;
  await Promise.allSettled(stops.map((stop) => stop()));
}
