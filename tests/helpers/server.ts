/**
 * Starts the built app (`next start`) as a real process on its own database, for tests that need a
 * server: webhooks delivered by the dispatcher, crash and restart, several instances, browsers.
 * Requires a build (`npm test` makes one with scripts/ensure-build.mjs).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import net from "node:net";
import postgres from "postgres";

const ROOT = path.resolve(__dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** A database of its own: a fresh PostgreSQL database (when DATABASE_URL is set) or a PGlite directory. */
export type TestDatabase = { env: Record<string, string>; drop: () => Promise<void> };

export async function createServerDatabase(): Promise<TestDatabase> {
  const base = process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
  if (base) {
    const name = `arara_s_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      drop: async () => {
        const a = postgres(base, { max: 1, onnotice: () => {} });
        await a.unsafe(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "arara-pglite-"));
  return { env: { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export type AppProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  logs: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/**
 * `command: "npm start"` runs package.json's start script as an operator would (npm, then its shell, then
 * node), in a process group of its own so that a signal reaches all three; by default the test runs
 * `next start` itself.
 */
export async function startApp(opts: { env?: Record<string, string>; port?: number; command?: "next start" | "npm start" } = {}): Promise<AppProcess> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let out = "";
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: "production",
    PORT: String(port),
    BASE_URL: url,
    CHECKOUT_URL: url,
    KEY_ENCRYPTION_SECRET: process.env.KEY_ENCRYPTION_SECRET ?? "test-key-encryption-secret-0123456789abcdef",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    LOG_LEVEL: "info",
    BACKGROUND_JOBS: "true",
    ...opts.env,
  };
  if (env.DATABASE_URL === "") delete env.DATABASE_URL;
  const npm = opts.command === "npm start";
  const listen = ["-p", String(port), "-H", "127.0.0.1"];
  const child = npm
    ? spawn("npm", ["start", "--", ...listen], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : spawn(path.join(ROOT, "node_modules/.bin/next"), ["start", ...listen], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  const signal = (s: NodeJS.Signals) => (npm ? process.kill(-child.pid!, s) : child.kill(s));
  child.stdout!.on("data", (d) => (out += d.toString()));
  child.stderr!.on("data", (d) => (out += d.toString()));
  // Under npm, npm may exit before the server it started: "close" waits until every process holding
  // the output pipes (the server too) has exited.
  const exited = new Promise<void>((resolve) => child.once(npm ? "close" : "exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      signal("SIGKILL");
      throw new Error(`app did not become healthy in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    child,
    logs: () => out,
    stop: async (sig = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) signal(sig);
      await exited;
    },
  };
}
