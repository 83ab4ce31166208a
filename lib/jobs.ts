import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { startDispatcher } from "@/lib/webhooks/dispatcher";
import { cardSettlementJob, receiptJob, sandboxPayoutsJob } from "@/lib/money-jobs";
import { apiPixReconcileJob } from "@/lib/psp-jobs";
import { databaseKind, getDb } from "@/lib/db/client";
import { maintainEmbeddedDatabase } from "@/lib/db/embedded-maintenance";
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
    // Autovacuum's work on the embedded database, which has no autovacuum (lib/db/embedded-maintenance.ts).
    name: "embedded-maintenance",
    enabled: () => databaseKind() === "pglite",
    start: () =>
      pollingLoop("embedded-maintenance", 60_000, async () => {
        const steps = await maintainEmbeddedDatabase(getDb());
        if (steps.length) getLogger().info({ steps }, "embedded database maintained");
        return 0;
      }),
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
