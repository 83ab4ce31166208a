import { ensureDatabase, shutdownDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { installRequestGuard } from "@/lib/http/request-guard";
import { getLogger } from "@/lib/logger";
import { closeHttp, drainHttp, handleShutdownSignals, isShuttingDown, trackHttpRequests } from "@/lib/shutdown";

/**
 * The database ready for a process that serves or works: migrated, and on the embedded default (or
 * with DEMO_MERCHANT=true) holding the demo merchant whose keys the README's examples use.
 */
export async function prepareDatabase(): Promise<void> {
  await ensureDatabase();
  if (getEnv().demoMerchant) {
    const { ensureDemoMerchant } = await import("@/lib/services/accounts/demo-merchant");
    await ensureDemoMerchant();
  }
}

export async function startServer(): Promise<void> {
  const env = getEnv(); // a bad configuration stops start-up here, naming the variable
  // Before the database opens, so that a signal at any moment from now on closes it cleanly.
  trackHttpRequests();
  // The peer address for rate limits, and 405 for methods Next cannot serve (TRACE).
  installRequestGuard();
  handleShutdownSignals(
    () => ({
      drain: [
        { name: "http requests", run: drainHttp },
        { name: "background jobs", run: async () => (await import("@/lib/jobs")).stopBackgroundJobs() },
      ],
      close: async () => {
        closeHttp();
        await shutdownDb();
      },
      // `next dev` SIGKILLs its server process 100 ms after passing the signal on: close the
      // database at once there. In production the work in flight gets 8 s, the whole shutdown 10 s
      // (`docker stop` waits 10 s, Kubernetes 30 s by default).
      ...(env.nodeEnv === "development" ? { drainMs: 30, limitMs: 2_000 } : { drainMs: 8_000, limitMs: 10_000 }),
    }),
    // Next's own handlers close the listener, then exit with 130/143 without waiting for the rest.
    { takeOver: true },
  );
  await prepareDatabase();
  if (isShuttingDown()) return;
  getLogger().info({ database: env.database, baseUrl: env.baseUrl }, "arara ready");
  const { startBackgroundJobs } = await import("@/lib/jobs");
  startBackgroundJobs();
}
