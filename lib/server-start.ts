import v8 from "node:v8";
import { ensureDatabase, shutdownDb } from "@/lib/db/client";
import { type Env, getEnv } from "@/lib/env";
import { installRequestGuard } from "@/lib/http/request-guard";
import { getLogger } from "@/lib/logger";
import { closeHttp, drainHttp, handleShutdownSignals, isShuttingDown, trackHttpRequests } from "@/lib/shutdown";

/**
 * The database ready for a process that serves or works: migrated, and the demo merchant (whose
 * keys the README's examples use) as DEMO_MERCHANT says: created or enabled again when on (the
 * default on the embedded database outside production), disabled when off in production or
 * DEMO_MERCHANT=false (its keys revoked, its logins blocked). Settings that start but are
 * probably wrong (lib/env.ts, Env.warnings) are logged here, by the app and the worker.
 */
export async function prepareDatabase(): Promise<void> {
  const env = getEnv();
  for (const warning of env.warnings) getLogger().warn(warning);
  await ensureDatabase();
  // Where the secret the database's encrypted columns need lives, so a backup takes it along (README, Backups).
  const { keyEncryptionSecretSource } = await import("@/lib/crypto");
  const source = keyEncryptionSecretSource();
  if (source.from === "file" && !(!env.databaseUrl && env.pgliteDir.startsWith("memory://"))) getLogger().info({ file: source.file }, "key-encryption secret: back this file up with the database");
  if (env.demoMerchant) {
    const { ensureDemoMerchant } = await import("@/lib/services/accounts/demo-merchant");
    await ensureDemoMerchant();
    if (env.nodeEnv === "production") {
      getLogger().warn(
        "the demo merchant is on (DEMO_MERCHANT=true): its keys and its dashboard password are published in the README. For real use start without DEMO_MERCHANT (or with DEMO_MERCHANT=false), which disables it",
      );
    }
  } else if (env.disableDemoMerchant) {
    const { disableDemoMerchant } = await import("@/lib/services/accounts/demo-merchant");
    await disableDemoMerchant();
  }
}

/**
 * The V8 flag that holds the JavaScript heap near what it needs (HEAP_GROWTH_PERCENT), or null for
 * V8's own growth. Under load V8 lets garbage pile up to several times the live heap before a full
 * collection (the app's live heap is 60-70 MB; its heap reached 250 MB under the benchmark). On the
 * embedded database the same process holds PostgreSQL's memory, so the default there is 50 %: the
 * benchmark's peak RSS fell from 450-520 to 330-360 MB, for the same rate of PIX charges and about a
 * fifth fewer cash-outs a second in a burst, which collect more often (tests/bench/PROFILE.md, eleventh
 * round). V8 reads the flag at every full collection, so setting it at start-up takes effect from the
 * first one.
 */
export function heapGrowthFlag(percent: number): string | null {
  return percent > 0 ? `--heap-growing-percent=${percent}` : null;
}

/**
 * The V8 flags this process runs with, set at start-up (before the embedded database compiles its
 * WebAssembly module, so the compiler flag applies to it):
 * - the heap's growth (above);
 * - on the embedded database, unless PGLITE_OPTIMIZING_COMPILER=true, `--liftoff-only`: PostgreSQL's
 *   WebAssembly runs as V8's baseline compiler (Liftoff) made it, and its hot functions are not
 *   compiled a second time by the optimizing compiler (TurboFan). That second compilation's code, and
 *   the memory it used while compiling, stayed resident: the app measured 35-80 MB smaller idle and
 *   30-65 MB at the peak of a burst without it. A statement timed in a loop ran 3-8 % slower, and the
 *   CPU of a request over HTTP measured the same (tests/bench/PROFILE.md, twelfth round). The flag
 *   concerns WebAssembly only, and the only WebAssembly in this process is PGlite's. Under it V8 stops
 *   the process if its baseline compiler cannot compile a function: config.test.ts compiles all of
 *   PGlite's module that way, so an upgrade that brought such a function would fail the tests.
 */
export function v8Flags(env: Pick<Env, "heapGrowthPercent" | "database" | "pgliteOptimizingCompiler">): string[] {
  const flags: string[] = [];
  const heapFlag = heapGrowthFlag(env.heapGrowthPercent);
  if (heapFlag) flags.push(heapFlag);
  if (env.database === "pglite" && !env.pgliteOptimizingCompiler) flags.push("--liftoff-only");
  return flags;
}

/** Sets `v8Flags(env)` on this process; returns them (the "arara ready" line states them). */
export function applyV8Flags(env: Parameters<typeof v8Flags>[0]): string[] {
  const flags = v8Flags(env);
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags;
}

/**
 * Starts the process's Arara, or stops the process: a server that cannot open its database (a bad
 * configuration, PostgreSQL unreachable, an embedded database in use by another process or in a
 * directory it cannot write) would otherwise keep listening and answer every request with a 500.
 * It prints one sentence saying why and exits with status 1, so that a supervisor (systemd, Docker,
 * Kubernetes) sees the failure.
 */
export async function startServer(): Promise<void> {
  try {
    await start();
  } catch (e) {
    process.stderr.write(`arara cannot start: ${startFailure(e)}\n`);
    await shutdownDb().catch(() => {});
    process.exit(1);
  }
}

/** Why start-up failed, in a sentence; a database that cannot be reached is named by its variable. */
export function startFailure(e: unknown): string {
  const why = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  const url = process.env.DATABASE_URL;
  if (url && typeof code === "string" && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ECONNRESET)$/.test(code)) {
    let where = "the server";
    try {
      const u = new URL(url);
      where = `${u.hostname}:${u.port || "5432"}`;
    } catch {
      // a malformed URL is refused by the configuration before any connection
    }
    return `cannot connect to PostgreSQL at ${where} (DATABASE_URL): ${code}. Check that the server runs and the URL is right.`;
  }
  return why;
}

async function start(): Promise<void> {
  const env = getEnv(); // a bad configuration stops start-up here, naming the variable
  const flags = applyV8Flags(env);
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
  getLogger().info({ database: env.database, baseUrl: env.baseUrl, v8Flags: flags }, "arara ready");
  const { startBackgroundJobs } = await import("@/lib/jobs");
  startBackgroundJobs();
}
