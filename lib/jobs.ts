import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

type Job = { name: string; enabled: () => boolean; start: () => () => void };

/**
 * Background loops that run in the app process (unless BACKGROUND_JOBS=off) or in `npm run worker`.
 * Each loop claims its work with FOR UPDATE SKIP LOCKED, so any number of processes may run them.
 */
export type { Job };
const JOBS: Job[] = [];

const g = globalThis as unknown as { __araraJobs?: (() => void)[] };

export function startBackgroundJobs(opts: { force?: boolean } = {}): () => void {
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

function stopAll() {
  for (const stop of g.__araraJobs ?? []) stop();
  g.__araraJobs = undefined;
}
