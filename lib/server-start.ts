import { ensureDatabase } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

export async function startServer(): Promise<void> {
  const env = getEnv(); // a bad configuration stops start-up here, naming the variable
  await ensureDatabase();
  getLogger().info({ database: env.database, baseUrl: env.baseUrl }, "arara ready");
  const { startBackgroundJobs } = await import("@/lib/jobs");
  startBackgroundJobs();
}
