// Helpers of `npm run bench`: processes (the built app, the worker, the bare server), databases,
// autocannon runs, memory sampling and a webhook receiver. Everything listens on 127.0.0.1 only.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DIST = process.env.NEXT_DIST_DIR || ".next-bench";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A database of its own: a fresh PostgreSQL database on the server of `baseUrl`, or a PGlite directory. */
export async function createDatabase(kind, baseUrl) {
  if (kind === "postgres") {
    const name = `arara_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const [{ version }] = await admin`select version()`;
    const [{ autovacuum }] = await admin`show autovacuum`;
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    return {
      kind,
      version,
      autovacuum,
      env: { DATABASE_URL: url.toString() },
      drop: async () => {
        const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
        await a.unsafe(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "arara-bench-"));
  return { kind, version: "PGlite", env: { PGLITE_DIR: path.join(dir, "db") }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

function baseEnv(db, port, extra) {
  const env = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    CHECKOUT_URL: `http://127.0.0.1:${port}`,
    KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-0123456789abcdef",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    DEMO_MERCHANT: "true",
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "10000000",
    CARD_TOKEN_LIMIT_PER_KEY: "10000000",
    CARD_TOKEN_LIMIT_PER_ADDRESS: "10000000",
    CARD_SETTLEMENT_DAYS: "0",
    SANDBOX_PSP_DELAY_MS: "500",
    LOG_LEVEL: "info",
    ...db.env,
    ...extra,
  };
  if (!env.DATABASE_URL) delete env.DATABASE_URL;
  return env;
}

/** Spawns a process, keeps its output, resolves when `ready(url)` answers. */
async function spawnReady(cmd, args, env, readyUrl, what) {
  let out = "";
  let partial = "";
  const maintained = []; // the embedded database's maintenance passes, in order (statisticsSettled)
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => {
    out = (out + d.toString()).slice(-200_000);
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop();
    for (const l of lines) if (l.includes("database maintained")) maintained.push(l);
  });
  child.stderr.on("data", (d) => (out = (out + d.toString()).slice(-200_000)));
  const exited = new Promise((r) => child.once("exit", r));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${out}`);
    if (readyUrl) {
      try {
        const res = await fetch(readyUrl);
        if (res.ok) break;
      } catch {
        /* not yet */
      }
    } else if (/worker started/.test(out)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${what} not ready in 90 s:\n${out}`);
    }
    await sleep(200);
  }
  return {
    child,
    pid: child.pid,
    logs: () => out,
    maintained: () => maintained,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, sleep(15_000).then(() => child.kill("SIGKILL"))]);
      await exited;
    },
  };
}

/**
 * The start script's words (package.json): its environment assignments (`NAME=value`, or
 * `NAME=${NAME:-value}`, a default the caller's environment overrides) and node's flags.
 */
export function startScript() {
  const words = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start.split(/\s+/);
  const env = {};
  for (const w of words) {
    const m = /^([A-Z_][A-Z0-9_]*)=(?:\$\{\1:-(.*)\}|(.*))$/.exec(w);
    if (m) env[m[1]] = m[2] !== undefined ? process.env[m[1]] || m[2] : m[3]; // sh's :- takes an empty value as unset
  }
  return { env, nodeFlags: words.filter((a) => a.startsWith("--")) };
}

/**
 * The app as `npm start` starts it: the start script's environment and node flags, then next start.
 * `nodeArgs` (e.g. --cpu-prof) go to node itself too: NODE_OPTIONS refuses --cpu-prof.
 */
export async function startApp(db, port, extra = {}, nodeArgs = []) {
  const script = startScript();
  const env = baseEnv(db, port, { ...script.env, ...extra });
  for (const [k, v] of Object.entries(env)) if (v === null) delete env[k]; // extra: { NAME: null } unsets NAME
  const args = ["start", "-p", String(port), "-H", "127.0.0.1"];
  const startFlags = script.nodeFlags;
  const p = await spawnReady(process.execPath, [...startFlags, ...nodeArgs, path.join(ROOT, "node_modules/next/dist/bin/next"), ...args], env, `http://127.0.0.1:${port}/api/v1/health`, "app");
  return { ...p, url: `http://127.0.0.1:${port}` };
}

export async function startWorker(db, extra = {}) {
  const env = baseEnv(db, 3767, extra); // the worker serves nothing; PORT only has to be valid
  return spawnReady(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/worker.ts"], env, null, "worker");
}

export async function startBareNode(db, port) {
  const env = { ...process.env, ...db.env, PORT: String(port) };
  if (!env.DATABASE_URL) delete env.DATABASE_URL;
  const p = await spawnReady(process.execPath, [path.join(ROOT, "scripts/bench/bare-node.mjs")], env, `http://127.0.0.1:${port}/`, "bare-node");
  return { ...p, url: `http://127.0.0.1:${port}` };
}

/**
 * Waits until the transactions table's statistics are current, the way a running deployment has them.
 * Until then the planner takes a table that grew from nothing in seconds for a small one and sorts a
 * list page instead of reading it from its index: a start-up transient the list scenario is not about.
 * - PostgreSQL: autovacuum analyzes a table once its changes pass 50 + 10 % of its rows, checked every
 *   autovacuum_naptime (a minute by default), or the app's maintenance pass does where autovacuum is
 *   off (every 10 s); this polls pg_stat_user_tables for that state.
 * - PGlite: the app's maintenance pass does the same every 10 s and logs the tables it analyzed; this
 *   waits for the next pass (a line naming the table, or 12 s: a pass then ran and found nothing due).
 * Returns the seconds waited and whether the statistics were seen current.
 */
export async function statisticsSettled(db, app, maxMs = 90_000) {
  const start = Date.now();
  const done = (settled) => ({ waitedS: +((Date.now() - start) / 1000).toFixed(1), settled });
  if (db.kind === "postgres") {
    const sql = postgres(db.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      while (Date.now() - start < maxMs) {
        const [row] = await sql`select n_mod_since_analyze <= 50 + 0.1 * n_live_tup as settled
          from pg_stat_user_tables where schemaname = 'public' and relname = 'transactions'`;
        if (row?.settled) return done(true);
        await sleep(500);
      }
    } finally {
      await sql.end();
    }
    return done(false);
  }
  const seen = app.maintained().length;
  while (Date.now() - start < 12_000) {
    if (app.maintained().slice(seen).some((l) => l.includes('"table":"transactions"'))) return done(true);
    await sleep(250);
  }
  return done(true);
}

/** RSS (MB) of a process and its descendants. */
export function rssMb(pid) {
  try {
    const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" });
    const rows = out.trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number));
    const tree = new Set([pid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [p, pp] of rows) {
        if (tree.has(pp) && !tree.has(p)) {
          tree.add(p);
          grew = true;
        }
      }
    }
    return rows.filter(([p]) => tree.has(p)).reduce((s, [, , rss]) => s + rss, 0) / 1024;
  } catch {
    return 0;
  }
}

export function sampleRss(pid, everyMs = 250) {
  const samples = [];
  const t = setInterval(() => samples.push(rssMb(pid)), everyMs);
  return { stop: () => (clearInterval(t), { peak: Math.max(0, ...samples), samples: samples.length }) };
}

/**
 * One autocannon run: `amount` requests (or fewer if `maxSeconds` passes first) over `connections`.
 * Returns req/s, latency percentiles (ms), errors and non-2xx counts.
 */
export async function cannon(name, opts) {
  const { maxSeconds = 30, ...rest } = opts;
  const inst = autocannon({ connections: 32, timeout: 30, ...rest });
  const timer = setTimeout(() => inst.stop(), maxSeconds * 1000);
  const r = await new Promise((resolve, reject) => {
    inst.on("done", resolve);
    inst.on("error", reject);
  });
  clearTimeout(timer);
  return {
    name,
    connections: r.connections,
    requests: r.requests.total,
    seconds: r.duration,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** A webhook receiver answering 200 at once, recording (time, webhook-id, body). */
export async function startReceiver(port) {
  const got = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ at: performance.now(), id: req.headers["webhook-id"], body });
      res.writeHead(200);
      res.end("ok");
    });
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((r) => server.close(r)) };
}

export async function api(base, method, p, body, auth) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* text */
  }
  if (res.status >= 400) throw new Error(`${method} ${p} -> ${res.status}: ${text.slice(0, 300)}`);
  return json ?? text;
}

export function percentile(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** CPU time (user + system, ms) used so far by a process and its descendants, from /proc. */
export function cpuMs(pid) {
  try {
    const out = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" });
    const rows = out.trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number));
    const tree = new Set([pid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [p, pp] of rows) {
        if (tree.has(pp) && !tree.has(p)) {
          tree.add(p);
          grew = true;
        }
      }
    }
    let ticks = 0;
    for (const p of tree) {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
      } catch {
        /* exited */
      }
    }
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** CPU ms (user + system) of every process named postgres on this machine. */
export function pgCpu() {
  let ticks = 0;
  for (const pid of execFileSync("pgrep", ["-x", "postgres"], { encoding: "utf8" }).trim().split("\n").filter(Boolean)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* exited meanwhile */
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
