import { closeDb, ensureDatabase } from "@/lib/db/client";
import { startBackgroundJobs } from "@/lib/jobs";
import { getLogger } from "@/lib/logger";

/**
 * `npm run worker`: the background loops (webhook dispatcher, sandbox PSP, settlement) without the
 * HTTP server. Run it beside app instances started with BACKGROUND_JOBS=off, or as extra capacity:
 * every loop claims work with FOR UPDATE SKIP LOCKED, so workers and apps never take the same row.
 */
async function main() {
  await ensureDatabase();
  const stop = startBackgroundJobs({ force: true });
  getLogger().info("worker started");
  const shutdown = async () => {
    await stop(); // lets deliveries in flight finish and record their attempt
    await closeDb();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
