/**
 * Every test file gets its own database: an in-memory PGlite, or, when DATABASE_URL is set, a fresh
 * PostgreSQL database created on that server and dropped afterwards. Tests run against the real
 * schema and migrations either way.
 */
import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import postgres from "postgres";

// Vitest puts Vite's BASE_URL ("/") into process.env; the app's BASE_URL is a different thing.
process.env.BASE_URL = "http://localhost:3000";
process.env.CHECKOUT_URL = "http://localhost:3000";
process.env.KEY_ENCRYPTION_SECRET ??= "test-key-encryption-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "silent";
process.env.DEMO_MERCHANT ??= "false";
process.env.BACKGROUND_JOBS ??= "false";
// Test-only (lib/env.ts): the loops off on the embedded database, refused to an operator. Inherited by
// the apps, workers and scripts the tests start (tests/helpers/server.ts passes process.env on).
process.env.TEST_ALLOW_JOBS_OFF_ON_PGLITE ??= "true";
process.env.WEBHOOK_ALLOW_PRIVATE_URLS ??= "true";

const baseUrl = process.env.DATABASE_URL;
let dropDatabase: (() => Promise<void>) | undefined;

if (baseUrl) {
  const name = `arara_t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.ARARA_TEST_BASE_DATABASE_URL = baseUrl;
  dropDatabase = async () => {
    const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${name} with (force)`);
    await a.end();
  };
} else {
  process.env.PGLITE_DIR = "memory://";
}

beforeAll(async () => {
  const { ensureDatabase } = await import("@/lib/db/client");
  await ensureDatabase();
});

afterAll(async () => {
  const { closeDb } = await import("@/lib/db/client");
  await closeDb();
  await dropDatabase?.();
});
