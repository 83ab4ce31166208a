import "./env-file";
import { databaseDescription, shutdownDb } from "@/lib/db/client";
import { startBackgroundJobs, stopBackgroundJobs } from "@/lib/jobs";
import { getLogger } from "@/lib/logger";
import { prepareDatabase } from "@/lib/server-start";
import { handleShutdownSignals, isShuttingDown } from "@/lib/shutdown";

/**
 * `npm run worker`: the background loops (webhook dispatcher, sandbox PSP, settlement) without the
 * HTTP server. Run it beside app instances started with BACKGROUND_JOBS=off, or as extra capacity:
 * every loop claims work with FOR UPDATE SKIP LOCKED, so workers and apps never take the same row.
 *
 * SIGINT/SIGTERM: the loops stop claiming and finish their current batch (deliveries in flight are
 * answered and their attempts recorded), the database closes, exit 0; bounded like the app's
 * shutdown (lib/shutdown.ts). tsx's own signal relay stays in place (no takeOver).
 */
async function main() {
  handleShutdownSignals(() => ({
    drain: [{ name: "background jobs", run: stopBackgroundJobs }],
    close: shutdownDb,
    drainMs: 8_000,
    limitMs: 10_000,
  }));
  await prepareDatabase();
  if (isShuttingDown()) return;
  startBackgroundJobs({ force: true });
  getLogger().info({ database: databaseDescription() }, "worker started");
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
