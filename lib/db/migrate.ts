import path from "node:path";
import postgres from "postgres";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { getEnv } from "@/lib/env";
import type { Db } from "./client";

const MIGRATIONS = path.join(process.cwd(), "drizzle");
// Any fixed number: instances starting together on one PostgreSQL take turns migrating.
const MIGRATION_LOCK = 7_246_001;

export async function migrateDatabase(db: Db, kind: "pglite" | "postgres"): Promise<void> {
  if (kind === "pglite") {
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS });
    return;
  }
  // A dedicated single connection, so the session-level advisory lock covers the whole migration.
  const sql = postgres(getEnv().databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(sql), { migrationsFolder: MIGRATIONS });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
