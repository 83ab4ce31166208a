/**
 * Clean shutdown with real processes: the built app (`next start`) and the worker (`tsx
 * scripts/worker.ts`) get SIGTERM mid-work, on a database of their own (a PGlite directory, or a fresh
 * PostgreSQL database when DATABASE_URL is set).
 *
 * What a clean shutdown must leave: exit code 0; every request answered 201 stored whole (row,
 * timeline, outbox event, completed idempotency record) and nothing stored that was not answered;
 * webhook deliveries in flight answered and their attempts recorded (so never sent twice); and, on
 * the embedded database, a restart that needs no crash recovery. Recovery shows in the transaction
 * ids: PostgreSQL WAL-logs sequences 32 values ahead, so after a crash the next id jumps; after a
 * clean shutdown it is the last one + 1. The SIGKILL test proves that this check sees a recovery.
 *
 * Needs a build: NEXT_DIST_DIR=.next-<you> node scripts/ensure-build.mjs, and the same NEXT_DIST_DIR
 * when running vitest.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { afterEach, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { basic } from "../helpers/app";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { checkLedger } from "@/lib/ledger/check";
import * as schema from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";

const ROOT = path.resolve(__dirname, "../..");
const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);
const AUTH = basic(DEMO.secretKey, "");
const FAST = { RATE_LIMIT_PER_SECOND: "100000", RATE_LIMIT_BURST: "100000", DEMO_MERCHANT: "true" };

let apps: AppProcess[] = [];
let workers: ChildProcess[] = [];
let receiver: Receiver | undefined;
let database: TestDatabase | undefined;

afterEach(async () => {
  await Promise.all(apps.map((a) => a.stop("SIGKILL")));
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill("SIGKILL");
  apps = [];
  workers = [];
  await receiver?.close();
  receiver = undefined;
  await database?.drop();
  database = undefined;
});

async function launch(env: Record<string, string>): Promise<AppProcess> {
  const app = await startApp({ env });
  apps.push(app);
  return app;
}

/** SIGTERM (or another signal) and the exit that follows. */
async function terminate(app: AppProcess, signal: NodeJS.Signals = "SIGTERM") {
  const started = Date.now();
  await app.stop(signal);
  apps = apps.filter((a) => a !== app);
  return { code: app.child.exitCode, signal: app.child.signalCode, ms: Date.now() - started };
}

async function createPix(app: AppProcess, postbackUrl: string | null, key = randomUUID()) {
  const res = await fetch(`${app.url}/api/v1/transactions`, {
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(pixCharge(postbackUrl, 1500)),
  });
  const json = (await res.json()) as any;
  return { status: res.status, id: json?.data?.id as number | undefined, key, json };
}

type Row = Record<string, any>;

/** The database the app used, opened by the test itself (only once the app has exited, on PGlite). */
async function withDatabase<T>(env: Record<string, string>, fn: (q: (query: SQL) => Promise<Row[]>, db: Db) => Promise<T>): Promise<T> {
  if (env.DATABASE_URL) {
    const client = postgres(env.DATABASE_URL, { max: 2, onnotice: () => {} });
    const db = drizzlePostgres(client, { schema, casing: "snake_case" });
    try {
      return await fn(async (query) => (await db.execute(query)) as unknown as Row[], db);
    } finally {
      await client.end();
    }
  }
  const client = new PGlite(env.PGLITE_DIR);
  const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Db;
  try {
    return await fn(async (query) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows, db);
  } finally {
    await client.close();
  }
}

/** Every answered 201 is stored whole, and nothing is stored that was not answered. */
async function expectStoredWhole(env: Record<string, string>, accepted: { id: number; key: string }[], extraIds: number[] = []) {
  await withDatabase(env, async (q, db) => {
    const ids = (await q(sql`select id from transactions order by id`)).map((r) => Number(r.id));
    expect(ids).toEqual([...accepted.map((a) => a.id), ...extraIds].sort((a, b) => a - b));
    const timeline = await q(sql`select transaction_id, count(*)::int as n from transaction_status_changes group by transaction_id`);
    expect(timeline.filter((r) => r.n !== 1)).toEqual([]);
    expect(timeline.length).toBe(ids.length);
    const events = await q(sql`select transaction_id, count(*)::int as n from webhook_events where status = 'pending' group by transaction_id`);
    expect(events.filter((r) => r.n !== 1)).toEqual([]);
    expect(events.length).toBe(ids.length);
    const keys = await q(sql`select key, response_status, response_body from idempotency_keys where scope like 'POST%'`);
    // Records are written with the operation they answer: none without a response, none for a 201 not stored.
    expect(keys.filter((k) => k.response_status === null)).toEqual([]);
    expect(keys.length).toBe(accepted.length + extraIds.length);
    const byKey = new Map(keys.map((k) => [k.key as string, k]));
    for (const a of accepted) {
      const k = byKey.get(a.key);
      expect(k, `idempotency record of ${a.key}`).toBeDefined();
      expect(k!.response_status).toBe(201);
      const body = typeof k!.response_body === "string" ? JSON.parse(k!.response_body) : k!.response_body;
      expect(body.data.id).toBe(a.id);
    }
    const ledger = await checkLedger(db);
    expect(ledger.violations).toEqual([]);
  });
}

describe("the app on SIGTERM", () => {
  it("under creation load: exits 0, answers or refuses every request (no 5xx), keeps every 201 whole, records the deliveries in flight, and restarts without recovery", async () => {
    database = await createServerDatabase();
    // Slow answers, so that deliveries are in flight when the signal comes.
    const r = (receiver = await startReceiver(() => ({ status: 200, delayMs: 400 })));
    const env = { ...database.env, ...FAST };
    let app = await launch(env);
    // The V8 flags start-up set, as its ready line states them (lib/server-start.ts, v8Flags).
    let ready: string | undefined;
    for (let i = 0; i < 50 && !ready; i++) {
      ready = app.logs().split("\n").find((l) => l.includes('"arara ready"'));
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse(ready!).v8Flags).toEqual(onPostgres ? [] : ["--heap-growing-percent=50", "--liftoff-only"]);

    const accepted: { id: number; key: string }[] = [];
    const otherStatuses: string[] = [];
    let refused = 0;
    let running = true;
    const client = async () => {
      while (running) {
        try {
          const res = await createPix(app, `${r.url}/load`);
          if (res.status === 201 && res.id) accepted.push({ id: res.id, key: res.key });
          else otherStatuses.push(`${res.status} ${JSON.stringify(res.json)}`);
        } catch {
          refused += 1; // connection refused or closed: the request never started
          await new Promise((res) => setTimeout(res, 20));
        }
      }
    };
    const load = Array.from({ length: 8 }, client);
    await r.waitFor(() => accepted.length >= 40 && r.hits.some((h) => h.answered === null), 30_000, "load and deliveries in flight");
    const inFlightAtSignal = r.hits.filter((h) => h.answered === null).map((h) => h.eventId);
    const exit = await terminate(app);
    running = false;
    await Promise.all(load);

    expect(exit, app.logs().slice(-3000)).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
    expect(app.logs()).toContain("database closed; exiting");
    expect(app.logs()).not.toMatch(/"level":50/); // no error line
    expect(otherStatuses).toEqual([]); // every request was answered 201 or never started
    expect(refused).toBeGreaterThan(0); // the load did run into the closed listener
    // The deliveries in flight at the signal were waited for and answered.
    expect(inFlightAtSignal.length).toBeGreaterThan(0);
    for (const id of inFlightAtSignal) expect(r.hits.find((h) => h.eventId === id)!.answered).toBe(200);

    // The restart: the next id follows the last accepted one (no crash recovery: no jump).
    const lastId = Math.max(...accepted.map((a) => a.id));
    app = await launch(env);
    const next = await createPix(app, null);
    expect(next.status).toBe(201);
    expect(next.id).toBe(lastId + 1);
    // Every event is delivered, each exactly once: those in flight at the signal were recorded as
    // delivered and are not sent again.
    await r.waitFor(() => r.delivered().size === accepted.length, 60_000, `all ${accepted.length} events`);
    await new Promise((res) => setTimeout(res, 1_000)); // a second delivery would arrive by now
    const perEvent = new Map<string, number>();
    for (const h of r.hits) perEvent.set(h.eventId, (perEvent.get(h.eventId) ?? 0) + 1);
    expect([...perEvent].filter(([, n]) => n !== 1)).toEqual([]);

    expect(await terminate(app)).toMatchObject({ code: 0, signal: null });
    await expectStoredWhole(env, accepted, [next.id!]);
    await withDatabase(env, async (q) => {
      const attempts = await q(sql`select e.id, e.delivery_state, count(a.id)::int as n, bool_and(a.success) as ok
        from webhook_events e left join webhook_attempts a on a.event_id = e.id where e.url is not null group by e.id`);
      expect(attempts.filter((a) => a.delivery_state !== "succeeded" || a.n !== 1 || !a.ok)).toEqual([]);
    });
  }, 180_000);

  it.skipIf(onPostgres)(
    "the check sees a crash: after SIGKILL the embedded database recovers and the next id jumps (PGlite only: a PostgreSQL server does not restart with the app)",
    async () => {
      database = await createServerDatabase();
      const env = { ...database.env, ...FAST, BACKGROUND_JOBS: "off" };
      let app = await launch(env);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await createPix(app, null)).id!);
      expect(await terminate(app, "SIGKILL")).toMatchObject({ signal: "SIGKILL" });
      app = await launch(env);
      const next = await createPix(app, null);
      expect(next.id! - Math.max(...ids)).toBeGreaterThan(1);
      // And a clean stop after the recovery brings the ids back to no gap.
      expect(await terminate(app)).toMatchObject({ code: 0 });
      app = await launch(env);
      const after = await createPix(app, null);
      expect(after.id).toBe(next.id! + 1);
    },
    120_000,
  );
});

/** `npm run worker` as the scale-out test runs it. */
function startWorker(env: Record<string, string>) {
  let out = "";
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: "production", LOG_LEVEL: "info" } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d.toString()));
  child.stderr!.on("data", (d) => (out += d.toString()));
  workers.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, logs: () => out, exited };
}

async function waitUntil(what: string, ok: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the worker on SIGTERM", () => {
  it("finishes and records the deliveries in flight and exits 0; a delivery that outlasts the bound gives exit 1 after 8 s; a second signal exits at once", async () => {
    database = await createServerDatabase();
    const r = (receiver = await startReceiver(() => ({ status: 200, delayMs: 500 })));
    // The app only creates the events; the worker delivers them (two at a time, so some stay pending).
    const base = { ...database.env, ...FAST };
    const app = await launch({ ...base, BACKGROUND_JOBS: "off" });
    for (let i = 0; i < 12; i++) expect((await createPix(app, `${r.url}/worker`)).status).toBe(201);
    expect(await terminate(app)).toMatchObject({ code: 0 });
    const env = { ...database.env, WEBHOOK_CONCURRENCY: "2", WEBHOOK_ALLOW_PRIVATE_URLS: "true" };

    // 1. Deliveries in flight are answered and recorded, then exit 0.
    let w = startWorker(env);
    await waitUntil("a delivery in flight", () => r.hits.length >= 3 && r.hits.some((h) => h.answered === null));
    const signalled = Date.now();
    w.child.kill("SIGTERM");
    const first = await w.exited;
    expect(first, w.logs().slice(-3000)).toMatchObject({ code: 0, signal: null });
    expect(first.at - signalled).toBeLessThan(10_000);
    expect(w.logs()).toContain("database closed; exiting");
    expect(r.hits.filter((h) => h.answered === null)).toEqual([]);
    const answered = new Set(r.hits.map((h) => h.eventId));
    await withDatabase(env, async (q) => {
      const events = await q(sql`select e.id, e.delivery_state, count(a.id)::int as n from webhook_events e
        left join webhook_attempts a on a.event_id = e.id where e.url is not null group by e.id order by e.id`);
      for (const e of events) {
        // Attempted exactly when the receiver answered it; nothing left leased or half-recorded.
        if (answered.has(String(e.id))) expect([e.delivery_state, e.n]).toEqual(["succeeded", 1]);
        else expect([e.delivery_state, e.n]).toEqual(["pending", 0]);
      }
      expect(events.some((e) => e.delivery_state === "pending")).toBe(true);
    });

    // 2. A receiver that never answers (and a long timeout): the drain gives up after 8 s, the
    //    database is still closed, the exit code says the shutdown was not clean.
    r.setHandler(() => ({ hang: true }));
    const hung = r.hits.length;
    w = startWorker({ ...env, WEBHOOK_TIMEOUT_MS: "60000" });
    await waitUntil("a hanging delivery", () => r.hits.length > hung);
    const t0 = Date.now();
    w.child.kill("SIGTERM");
    const bounded = await w.exited;
    expect(bounded.code).toBe(1);
    expect(bounded.at - t0).toBeGreaterThanOrEqual(7_500);
    expect(bounded.at - t0).toBeLessThan(10_000);
    expect(w.logs()).toContain("work still in flight after 8000 ms");
    expect(w.logs()).toContain("database closed; exiting");

    // 3. A second signal (after the first's repeat window) exits at once.
    const before = r.hits.length;
    w = startWorker({ ...env, WEBHOOK_TIMEOUT_MS: "60000" });
    await waitUntil("another hanging delivery", () => r.hits.length > before);
    w.child.kill("SIGTERM");
    await new Promise((res) => setTimeout(res, 1_000));
    expect(w.child.exitCode).toBeNull(); // still draining
    const t1 = Date.now();
    w.child.kill("SIGTERM");
    const forced = await w.exited;
    expect(forced.code).toBe(143);
    expect(forced.at - t1).toBeLessThan(2_000);
    expect(w.logs()).toContain("second signal: exiting at once");
  }, 180_000);
});
