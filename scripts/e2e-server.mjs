// The server Playwright starts: the production build on a database of its own (a fresh PostgreSQL
// database when DATABASE_URL is set, else a temporary PGlite directory), with the demo merchant.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const port = process.env.E2E_PORT || "3100";
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  BASE_URL: `http://127.0.0.1:${port}`,
  CHECKOUT_URL: `http://127.0.0.1:${port}`,
  KEY_ENCRYPTION_SECRET: "e2e-key-encryption-secret-0123456789abcdef",
  DEMO_MERCHANT: "true",
  // Closed by default in production: the browser tests sign merchants up.
  SIGNUP: "open",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  // The browser tests stand behind a proxy at 127.0.0.1: a spec that signs up a merchant says its
  // client address in X-Forwarded-For (tests/e2e/dashboard-helpers.ts), like a real reverse proxy.
  TRUSTED_PROXIES: "127.0.0.1, ::1",
  CARD_SETTLEMENT_DAYS: process.env.CARD_SETTLEMENT_DAYS ?? "0",
  SANDBOX_PSP_DELAY_MS: "300",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
};

let cleanup = async () => {};
if (process.env.DATABASE_URL) {
  const base = process.env.DATABASE_URL;
  const name = `arara_e2e_${Date.now().toString(36)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  cleanup = async () => {
    const a = postgres(base, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await a.end();
  };
} else {
  const dir = mkdtempSync(path.join(tmpdir(), "arara-e2e-"));
  env.PGLITE_DIR = path.join(dir, "db");
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}

const child = spawn("node_modules/.bin/next", ["start", "-p", port, "-H", "127.0.0.1"], { env, stdio: "inherit" });
const stop = async () => {
  child.kill("SIGTERM");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", async (code) => {
  await cleanup();
  process.exit(code ?? 0);
});
