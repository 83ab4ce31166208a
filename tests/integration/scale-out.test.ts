/**
 * Scale-out on one PostgreSQL: two app instances (BACKGROUND_JOBS=off) behind no balancer, one
 * worker process (`npx tsx scripts/worker.ts`) running the dispatcher and the sandbox PSP, and
 * concurrent traffic through both instances: PIX and card charges, payments by sandbox move (the same
 * payment sent to both instances at once), double refunds, cash-outs racing for one balance. Then:
 * every webhook event delivered exactly once (by webhook-id) and in order per transaction, no
 * overdraw, and `npm run ledger:check` exits 0.
 *
 * PostgreSQL only: PGlite is an embedded, single-process database (one app process per data
 * directory), so there is nothing to scale out on it.
 *
 * Needs a build: NEXT_DIST_DIR=.next-proof node scripts/ensure-build.mjs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { proofPort } from "../helpers/proof-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { DEMO } from "@/lib/services/accounts/demo-merchant";

const ROOT = path.resolve(__dirname, "../..");
const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);

const SHARED_ENV = {
  DEMO_MERCHANT: "true",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  RATE_LIMIT_PER_SECOND: "100000",
  RATE_LIMIT_BURST: "100000",
  SANDBOX_PSP_DELAY_MS: "300",
  CARD_SETTLEMENT_DAYS: "0",
  KEY_ENCRYPTION_SECRET: "scale-out-key-encryption-secret-0123456789",
};

let db: TestDatabase;
const apps: AppProcess[] = [];
let worker: ChildProcess | undefined;
let workerLogs = "";
let receiver: Receiver;
const auth = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;

type Res = { status: number; json: any; text: string };

async function api(instance: number, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const res = await fetch(`${apps[instance % apps.length].url}${p}`, {
    method,
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* plain text (card token) */
  }
  return { status: res.status, json, text };
}

const customer = { name: "Carla Dias", email: "carla@example.com", document: { type: "cpf", number: "11144477735" } };
const pixBody = (amount: number, postbackUrl: string) => ({
  paymentMethod: "pix",
  amount,
  customer,
  items: [{ title: "Pedido", unitPrice: amount, quantity: 1, tangible: false }],
  postbackUrl,
});

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nworker:\n${workerLogs.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.skipIf(!onPostgres)("scale-out: two app instances and a worker on one PostgreSQL", () => {
  let sql: postgres.Sql;

  beforeAll(async () => {
    db = await createServerDatabase();
    receiver = await startReceiver(undefined, await proofPort());
    // Started one after the other: the first migrates and creates the demo merchant.
    for (let i = 0; i < 2; i++) {
      apps.push(await startApp({ port: await proofPort(), env: { ...db.env, ...SHARED_ENV, BACKGROUND_JOBS: "off" } }));
    }
    worker = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/worker.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...db.env, ...SHARED_ENV, NODE_ENV: "production", LOG_LEVEL: "info" } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d) => (workerLogs += d.toString()));
    worker.stderr!.on("data", (d) => (workerLogs += d.toString()));
    await waitFor("the worker to start", async () => /worker started/.test(workerLogs), 60_000);
    sql = postgres(db.env.DATABASE_URL, { max: 2, onnotice: () => {} });
  }, 240_000);

  afterAll(async () => {
    await sql?.end();
    if (worker && worker.exitCode === null) {
      worker.kill("SIGTERM");
      await new Promise((r) => worker!.once("exit", r));
    }
    for (const a of apps) await a.stop();
    await receiver?.close();
    await db?.drop();
  }, 60_000);

  it("concurrent charges, payments, refunds and cash-outs through both instances", async () => {
    // 40 PIX charges, alternating instances, all at once.
    const pix = await Promise.all(Array.from({ length: 40 }, (_, i) => api(i, "POST", "/api/v1/transactions", pixBody(5_000 + i, receiver.url))));
    for (const r of pix) expect(r.status, r.text).toBe(201);
    const pixIds: number[] = pix.map((r) => r.json.data.id);

    // 12 card charges: tokenized on one instance, charged on the other.
    const cards = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const tokenRes = await fetch(`${apps[i % 2].url}/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ number: i % 4 === 3 ? "4000000000000002" : "4111111111111111", holderName: "CARLA D", expirationMonth: "09", expirationYear: "2032", cvv: "321" }),
        });
        const token = await tokenRes.text();
        expect(tokenRes.status, token).toBe(200);
        return api(i + 1, "POST", "/api/v1/transactions", {
          paymentMethod: "credit_card",
          amount: 3_000,
          installments: 1,
          customer,
          items: [{ title: "Cartão", unitPrice: 3_000, quantity: 1, tangible: false }],
          ip: "198.51.100.4",
          card: { hash: token },
          postbackUrl: receiver.url,
        });
      }),
    );
    for (const r of cards) expect(r.status, r.text).toBe(201);
    expect(cards.filter((r) => r.json.data.status === "refused")).toHaveLength(3);

    // Each PIX paid by the same sandbox move sent to both instances at once: exactly one wins.
    const pays = await Promise.all(pixIds.flatMap((id) => [api(0, "PUT", `/api/v1/transactions/${id}/test`, { status: "paid" }), api(1, "PUT", `/api/v1/transactions/${id}/test`, { status: "paid" })]));
    for (let i = 0; i < pixIds.length; i++) {
      const pair = [pays[2 * i], pays[2 * i + 1]];
      expect(pair.filter((r) => r.status === 200), JSON.stringify(pair.map((r) => r.text))).toHaveLength(1);
      for (const r of pair) expect([200, 409, 422]).toContain(r.status);
    }

    // Full refunds of 10 paid PIX, each sent to both instances at once: one refund each.
    const refundIds = pixIds.slice(0, 10);
    const refunds = await Promise.all(refundIds.flatMap((id) => [api(0, "POST", `/api/v1/transactions/${id}/refund`, {}), api(1, "POST", `/api/v1/transactions/${id}/refund`, {})]));
    for (let i = 0; i < refundIds.length; i++) {
      const pair = [refunds[2 * i], refunds[2 * i + 1]];
      expect(pair.filter((r) => r.status === 200), JSON.stringify(pair.map((r) => r.text))).toHaveLength(1);
    }

    // Cash-outs racing for the available balance: more is asked than there is.
    const before = (await api(0, "GET", "/api/v1/balance")).json.data;
    expect(before.available).toBeGreaterThan(0);
    const each = Math.ceil(before.available / 15);
    const cashOuts = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api(i, "POST", "/api/v1/cashOut/request", { amount: each, pixKey: i % 6 === 5 ? "fail@arara.dev" : "carla@example.com", postbackUrl: receiver.url }),
      ),
    );
    const accepted = cashOuts.filter((r) => r.status === 201);
    for (const r of cashOuts) expect([201, 422], r.text).toContain(r.status);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(15);
    expect(cashOuts.filter((r) => r.status === 422).every((r) => r.json.code === "insufficient_balance")).toBe(true);
    expect(accepted.length * each).toBeLessThanOrEqual(before.available);
    const after = (await api(1, "GET", "/api/v1/balance")).json.data;
    expect(after.available).toBeGreaterThanOrEqual(0);
  }, 240_000);

  it("the worker delivers every event exactly once, in order per transaction, signed", async () => {
    await waitFor("cash-outs to finish and the outbox to drain", async () => {
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_events where delivery_state = 'pending'`;
      const [{ c }] = await sql<{ c: number }[]>`select count(*)::int as c from cash_outs where status in ('pending', 'processing')`;
      return n === 0 && c === 0;
    });
    const events = await sql<{ id: string; ordering_key: string; delivery_state: string }[]>`
      select id::text, ordering_key, delivery_state from webhook_events where url is not null order by id`;
    expect(events.length).toBeGreaterThan(100);
    expect(events.filter((e) => e.delivery_state !== "succeeded")).toEqual([]);

    const ids = receiver.hits.map((d) => d.eventId);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes, "webhook-ids delivered more than once").toEqual([]);
    expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));

    // In id order per transaction / cash-out.
    const keyOf = new Map(events.map((e) => [e.id, e.ordering_key]));
    const lastByKey = new Map<string, number>();
    for (const d of receiver.hits) {
      const key = keyOf.get(d.eventId)!;
      const n = Number(d.eventId);
      expect(n, `out of order on ${key}`).toBeGreaterThan(lastByKey.get(key) ?? 0);
      lastByKey.set(key, n);
    }

    const wh = new Webhook(DEMO.webhookSecret);
    for (const d of receiver.hits.slice(0, 20)) {
      expect(() => wh.verify(d.body, d.headers)).not.toThrow();
    }
    const attempts = await sql<{ n: number }[]>`select count(*)::int as n from webhook_attempts`;
    expect(attempts[0].n).toBe(receiver.hits.length);
  }, 180_000);

  it("no overdraw and the ledger checks out (npm run ledger:check exits 0)", async () => {
    const negative = await sql`select id, kind, balance from ledger_accounts where company_id is not null and balance < 0`;
    expect(negative).toEqual([]);
    const r = spawnSync("npm", ["run", "--silent", "ledger:check"], {
      cwd: ROOT,
      env: { ...process.env, ...db.env, ...SHARED_ENV, NODE_ENV: "production" } as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  }, 180_000);
});

describe.skipIf(onPostgres)("scale-out on PGlite", () => {
  it.skip("needs PostgreSQL: PGlite is an embedded single-process database, one app per data directory", () => {});
});
