/**
 * Webhooks with the real app as a process (`next start` on a database of its own): events survive a
 * SIGKILL (outbox + leases), and two instances on one PostgreSQL never send an attempt twice.
 * Needs a build: `NEXT_DIST_DIR=.next-events node scripts/ensure-build.mjs`, and the same
 * NEXT_DIST_DIR when running vitest.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { basic } from "../helpers/app";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { DEMO } from "@/lib/services/accounts/demo-merchant";

const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);

/** A free port in this suite's range (3300-3399). */
async function portInRange(): Promise<number> {
  const start = 3300 + Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i++) {
    const port = 3300 + ((start - 3300 + i) % 100);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 3300-3399");
}

let apps: AppProcess[] = [];
let receiver: Receiver | undefined;
let database: TestDatabase | undefined;

afterEach(async () => {
  await Promise.all(apps.map((a) => a.stop("SIGKILL")));
  apps = [];
  await receiver?.close();
  receiver = undefined;
  await database?.drop();
  database = undefined;
});

async function launch(env: Record<string, string>): Promise<AppProcess> {
  const app = await startApp({ env, port: await portInRange() });
  apps.push(app);
  return app;
}

async function api(app: AppProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: basic(DEMO.secretKey, ""), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/** Creates a PIX and moves it; returns its id and the statuses its webhooks must carry, in order. */
async function chargeAndMove(create: AppProcess, mover: AppProcess, url: string, moves: string[]) {
  const t = await api(create, "POST", "/api/v1/transactions", pixCharge(url, 1000 + Math.floor(Math.random() * 1000)));
  for (const status of moves) await api(mover, "PUT", `/api/v1/transactions/${t.id}/test`, { status });
  return { id: t.id as number, statuses: ["pending", ...moves] };
}

function expectInOrder(r: Receiver, charges: { id: number; statuses: string[] }[]) {
  for (const c of charges) {
    const hits = r.hits.filter((h) => h.json?.data?.id === c.id);
    const ids = hits.map((h) => h.json.id as number);
    // Arrival order follows notification ids (a redelivery after a crash repeats the same id in place).
    expect(ids, `transaction ${c.id}`).toEqual([...ids].sort((a, b) => a - b));
    const distinct = hits.filter((h, i) => i === 0 || h.json.id !== hits[i - 1].json.id).map((h) => h.json.data.status);
    expect(distinct, `transaction ${c.id}`).toEqual(c.statuses);
  }
}

describe("webhooks across a crash", () => {
  it("delivers every event at least once, in order, after the app is SIGKILLed with events pending and in flight", async () => {
    database = await createServerDatabase();
    // The receiver is slow at first, so deliveries are in flight when the app dies.
    const r = (receiver = await startReceiver(() => ({ status: 200, delayMs: 800 })));
    const env = {
      ...database.env,
      DEMO_MERCHANT: "true",
      WEBHOOK_RETRY_SCHEDULE: "0,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2",
      WEBHOOK_TIMEOUT_MS: "2000",
    };
    let app = await launch(env);
    const charges = [];
    for (let i = 0; i < 8; i++) {
      charges.push(await chargeAndMove(app, app, `${r.url}/crash`, i % 2 ? ["paid"] : ["paid", "chargedback"]));
    }
    const expected = charges.reduce((n, c) => n + c.statuses.length, 0);
    // Kill while the receiver holds requests it has not answered yet (attempts in flight).
    await r.waitFor(() => r.hits.length >= 4 && r.hits.some((h) => h.answered === null), 20_000, "deliveries in flight");
    await app.stop("SIGKILL");
    apps = apps.filter((a) => a !== app);
    const inFlight = r.hits.filter((h) => h.answered === null).map((h) => h.eventId);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(r.hits.length).toBeLessThan(expected); // and events still pending, never attempted

    r.setHandler(() => ({ status: 200 }));
    app = await launch(env); // same database
    // In-flight rows wait for their lease (timeout + 13 s) to expire before another claim.
    await r.waitFor(() => r.delivered().size === expected, 60_000, `all ${expected} events`);

    for (const id of inFlight) expect(r.delivered().has(id)).toBe(true); // sent again after the restart
    const verifier = new Webhook(DEMO.webhookSecret);
    for (const h of r.hits) expect(verifier.verify(h.body, h.headers)).toEqual(h.json);
    expectInOrder(r, charges);
    for (const c of charges) {
      const log = await api(app, "GET", `/api/v1/transactions/${c.id}/webhooks`);
      expect(log.map((e: any) => [e.status, e.deliveryState])).toEqual(c.statuses.map((s) => [s, "succeeded"]));
      for (const e of log) expect(r.delivered().has(String(e.id))).toBe(true);
    }
  }, 120_000);
});

describe("two app instances on one database", () => {
  it.skipIf(!onPostgres)(
    "deliver each attempt of each event exactly once, in order per transaction (PostgreSQL only: PGlite is an embedded single-process database, two processes cannot share one)",
    async () => {
      database = await createServerDatabase();
      // Every event's first attempt fails and its second succeeds: exactly two hits per event.
      const r = (receiver = await startReceiver((_hit, n) => (n === 1 ? { status: 500, delayMs: 10 } : { status: 200, delayMs: 10 })));
      const env = { ...database.env, DEMO_MERCHANT: "true", WEBHOOK_RETRY_SCHEDULE: "0,0.2,0.2,0.2,0.2", WEBHOOK_TIMEOUT_MS: "2000" };
      const a = await launch(env); // first, so migrations and the demo merchant are in place
      const b = await launch(env);
      const charges = [];
      for (let i = 0; i < 20; i++) {
        const [x, y] = i % 2 ? [a, b] : [b, a];
        charges.push(await chargeAndMove(x, y, `${r.url}/multi`, i % 3 ? ["paid"] : ["paid", "chargedback"]));
      }
      const expected = charges.reduce((n, c) => n + c.statuses.length, 0);
      await r.waitFor(() => r.delivered().size === expected, 60_000, `all ${expected} events`);
      await new Promise((res) => setTimeout(res, 1500)); // a duplicate would arrive by now

      const perEvent = new Map<string, number>();
      for (const h of r.hits) perEvent.set(h.eventId, (perEvent.get(h.eventId) ?? 0) + 1);
      expect(perEvent.size).toBe(expected);
      const duplicated = [...perEvent].filter(([, n]) => n !== 2);
      expect(duplicated).toEqual([]);
      expectInOrder(r, charges);
      for (const c of charges) {
        const log = await api(a, "GET", `/api/v1/transactions/${c.id}/webhooks`);
        for (const e of log) {
          expect(e.deliveryState).toBe("succeeded");
          expect(e.attempts.map((x: any) => [x.number, x.success])).toEqual([
            [1, false],
            [2, true],
          ]);
        }
      }
      // Both instances took part (each logs the failed first attempts it made).
      expect(a.logs()).toContain("webhook attempt failed");
      expect(b.logs()).toContain("webhook attempt failed");
    },
    120_000,
  );
});
