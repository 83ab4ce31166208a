import path from "node:path";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { withPreparedStatements } from "./pglite-statements";
import { PGlite } from "@electric-sql/pglite";
import { lockPgliteDirectory } from "./pglite-lock";
import postgres from "postgres";
import { getEnv } from "@/lib/env";
import * as schema from "./schema";

/**
 * The one database handle of the process. Both drivers expose the same drizzle API; the PGlite one
 * is typed as the postgres.js one so services never branch on the driver.
 */
export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that can run a query: the db or an open transaction. */
export type Queryable = Db | Tx;

type Handle = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void>; ready?: Promise<void>; housekeeping?: () => Db };

// Kept on globalThis so that dev-server reloads reuse it: two instances on one directory would corrupt
// it (the directory's lock, lib/db/pglite-lock.ts, would refuse the second).
const g = globalThis as unknown as { __araraDb?: Handle; __araraDbShutDown?: boolean };

function open(): Handle {
  const env = getEnv();
  if (env.databaseUrl) {
    const sql = postgres(env.databaseUrl, {
      max: env.databasePoolSize,
      onnotice: () => {},
      connection: { application_name: "arara" },
    });
    const db = drizzlePostgres(sql, { schema, casing: "snake_case" });
    // The maintenance pass's connection, apart from the pool (housekeepingDb).
    let side: { sql: postgres.Sql; db: Db } | undefined;
    const housekeeping = () => {
      if (!side) {
        const one = postgres(env.databaseUrl!, { max: 1, onnotice: () => {}, connection: { application_name: "arara-housekeeping" } });
        side = { sql: one, db: drizzlePostgres(one, { schema, casing: "snake_case" }) };
      }
      return side.db;
    };
    return { db, kind: "postgres", housekeeping, close: async () => void (await Promise.all([sql.end({ timeout: 5 }), side?.sql.end({ timeout: 5 })])) };
  }
  const dir = env.pgliteDir;
  const inMemory = dir.startsWith("memory://");
  // One process per directory (lib/db/pglite-lock.ts), locked before anything opens it.
  const release = inMemory ? () => {} : lockPgliteDirectory(path.resolve(dir));
  if (!inMemory) {
    try {
      mkdirSync(path.resolve(dir), { recursive: true });
      initdbInChildProcess(path.resolve(dir));
    } catch (e) {
      release();
      throw e;
    }
  }
  // PostgreSQL's default 128 MB of shared buffers is sized for a server; in-process it roughly
  // doubles the app's resident memory for no gain on an embedded database's size.
  // Planner statistics from a sample of 3,000 rows instead of 30,000 (default_statistics_target 10, not
  // 100): the maintenance pass's ANALYZE runs on the app's one thread and every request in flight waits
  // for it; at 50,000 charges analyzing transactions took 0.5-0.65 s, 0.05 s with this, and the
  // estimates the lists' plans read (an account's rows, a status, a customer's document or e-mail)
  // came out the same (tests/bench/PROFILE.md, nineteenth round). PGlite writes this file at every start.
  const client = new PGlite(inMemory ? dir : path.resolve(dir), { postgresqlconf: ["shared_buffers=16MB", "default_statistics_target=10"] });
  // drizzle sees the instance through the statement cache (lib/db/pglite-statements.ts): a statement
  // that comes back is prepared once, not parsed and planned on every call.
  const db = drizzlePglite(withPreparedStatements(client), { schema, casing: "snake_case" }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close().finally(release) };
}

/**
 * First boot of an embedded database directory: PGlite runs initdb in the process that opens it, and
 * the WebAssembly memory initdb grows to (≈ 500 MB more) is never given back. A short-lived child
 * process does it instead and exits, returning that memory; this process then opens an existing
 * directory. Synchronous on purpose: nothing can open the directory before initdb is done (two
 * PGlite instances on one directory would corrupt it), and it happens once per directory.
 */
function initdbInChildProcess(dir: string): void {
  if (existsSync(path.join(dir, "PG_VERSION"))) return;
  const script = `import { PGlite } from "@electric-sql/pglite"; const db = new PGlite(process.argv[1]); await db.waitReady; await db.close();`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, dir], { cwd: process.cwd(), encoding: "utf8", timeout: 120_000 });
  if (child.status !== 0 || !existsSync(path.join(dir, "PG_VERSION"))) {
    const why = child.error?.message ?? `${child.stderr ?? ""}`.trim().split("\n").slice(-3).join(" ");
    throw new Error(`Cannot create the embedded database in ${dir}: ${why || `initdb exited with ${child.status}`}`);
  }
}

function handle(): Handle {
  if (g.__araraDbShutDown) throw new Error("The database is closed: the process is shutting down.");
  g.__araraDb ??= open();
  return g.__araraDb;
}

export function getDb(): Db {
  return handle().db;
}

/**
 * A connection of its own for the maintenance pass's VACUUM and ANALYZE on PostgreSQL, never one of the
 * pool's. When every pooled connection is busy, postgres.js queues the next query behind one already
 * running on some connection (pipelining); a VACUUM can run for seconds (it waits up to 5 s for the lock
 * that truncates a table's empty tail while requests use the table), and the requests queued behind it
 * waited as long: card charges took 5.1 s in every benchmark run until this (tests/bench/PROFILE.md,
 * nineteenth round). On the embedded database, one session runs everything: the same handle.
 */
export function housekeepingDb(): Db {
  const h = handle();
  return h.housekeeping ? h.housekeeping() : h.db;
}

/** Which database this process uses, for a person (no credentials): "PostgreSQL at host:5432/arara" or the embedded one's directory. */
export function databaseDescription(): string {
  const env = getEnv();
  if (env.databaseUrl) {
    try {
      const u = new URL(env.databaseUrl);
      return `PostgreSQL at ${u.hostname}:${u.port || "5432"}${u.pathname}`;
    } catch {
      return "PostgreSQL (DATABASE_URL)";
    }
  }
  return env.pgliteDir.startsWith("memory://") ? "an in-memory embedded database" : `the embedded database in ${path.resolve(env.pgliteDir)}`;
}

export function databaseKind(): "pglite" | "postgres" {
  return handle().kind;
}

/** Closes the connection (scripts and tests); the next getDb() opens a new one. */
export async function closeDb(): Promise<void> {
  const h = g.__araraDb;
  g.__araraDb = undefined;
  if (h) await h.close();
}

/**
 * The last close of the process (clean shutdown, lib/shutdown.ts): PGlite waits for the queries and
 * transactions in progress, then shuts its PostgreSQL down cleanly (the next start needs no crash
 * recovery); postgres.js lets the running queries finish (up to 5 s) and ends its connections. Unlike closeDb(), a later getDb()
 * throws instead of opening the database again behind the shutdown's back.
 */
export async function shutdownDb(): Promise<void> {
  g.__araraDbShutDown = true;
  await closeDb();
}

/**
 * Memoised: migrations run once per process. The database layer creates no accounts: the demo
 * merchant of the embedded default is made where a server or worker starts (lib/server-start.ts).
 */
export function ensureDatabase(): Promise<void> {
  const h = handle();
  h.ready ??= (async () => {
    const { migrateDatabase } = await import("./migrate");
    await migrateDatabase(h.db, h.kind);
    // The secrets it keeps must be readable with this process's key-encryption secret (key-check.ts).
    const { checkKeyEncryptionSecret } = await import("./key-check");
    await checkKeyEncryptionSecret(h.db);
  })().catch((err) => {
    h.ready = undefined;
    throw err;
  });
  return h.ready;
}
