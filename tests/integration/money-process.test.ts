/**
 * Money across processes, on PostgreSQL, with the built app (`next start`) as real processes:
 *
 * - kill -9 while a request with an Idempotency-Key is provably mid-transaction (the test holds a
 *   row lock the operation needs), restart, retry with the key: it runs once (no 409 for a key
 *   that committed nothing, no double money); and a key whose request committed replays its answer
 *   byte for byte after the restart;
 * - two instances on one database: a payment link paid on its page through one instance while
 *   "try another card" runs on a refused charge of the link through the other gives one paid charge.
 *
 * Each ends with `npm run ledger:check` on the app's database. PostgreSQL only: PGlite is one
 * process's embedded database.
 *
 * Needs a build: NEXT_DIST_DIR=.next-<you> node scripts/ensure-build.mjs, and the same NEXT_DIST_DIR.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";

const ROOT = path.resolve(__dirname, "../..");
const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);
const auth = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;
const ENV = {
  DEMO_MERCHANT: "true",
  BACKGROUND_JOBS: "false",
  RATE_LIMIT_PER_SECOND: "100000",
  RATE_LIMIT_BURST: "100000",
  KEY_ENCRYPTION_SECRET: "money-process-key-encryption-secret-0123456789",
};
const customer = { name: "Carla Dias", email: "carla@example.com", document: { type: "cpf", number: "11144477735" } };
const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };

type Res = { status: number; json: any; text: string; headers: Headers };

async function request(app: AppProcess, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const res = await fetch(`${app.url}${p}`, {
    method,
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* plain text (a card token) */
  }
  return { status: res.status, json, text, headers: res.headers };
}

function ledgerCheck(db: TestDatabase) {
  const r = spawnSync("npm", ["run", "--silent", "ledger:check"], {
    cwd: ROOT,
    env: { ...process.env, ...db.env, ...ENV, NODE_ENV: "production" } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
}

describe.skipIf(!onPostgres)("an Idempotency-Key across a crash (kill -9) and a restart", () => {
  let db: TestDatabase;
  let app: AppProcess;
  let sql: postgres.Sql;

  beforeAll(async () => {
    db = await createServerDatabase();
    app = await startApp({ env: { ...db.env, ...ENV } });
    sql = postgres(db.env.DATABASE_URL, { max: 3, onnotice: () => {} });
  }, 120_000);

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sql?.end();
    await db?.drop();
  });

  async function paidPix(amount: number): Promise<number> {
    const created = await request(app, "POST", "/api/v1/transactions", {
      paymentMethod: "pix",
      amount,
      customer,
      items: [{ title: "Pedido", unitPrice: amount, quantity: 1, tangible: false }],
    });
    expect(created.status, created.text).toBe(201);
    const paid = await request(app, "PUT", `/api/v1/transactions/${created.json.data.id}/test`, { status: "paid" });
    expect(paid.status, paid.text).toBe(200);
    return created.json.data.id;
  }

  async function refundedAmount(id: number): Promise<number> {
    const [row] = await sql<{ refunded_amount: string }[]>`select refunded_amount from transactions where id = ${id}`;
    return Number(row.refunded_amount);
  }

  async function appBackends(): Promise<number[]> {
    const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity
      where datname = current_database() and application_name = 'arara'`;
    return rows.map((r) => r.pid);
  }

  async function waitUntil(what: string, ok: () => Promise<boolean>) {
    const deadline = Date.now() + 30_000;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("a keyed refund killed mid-transaction runs once when retried after the restart: no 409, one refund", async () => {
    const id = await paidPix(5_000);
    const key = "refund-killed-mid-transaction";

    // Hold the transaction's row: the refund takes its key, then waits for this lock inside its
    // database transaction.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = sql.begin(async (q) => {
      await q`select id from transactions where id = ${id} for update`;
      locked();
      await released;
    });
    await isLocked;

    const inFlight = request(app, "POST", `/api/v1/transactions/${id}/refund`, { amount: 2_000 }, { "idempotency-key": key }).catch(
      (err: Error) => err,
    );
    await waitUntil("the refund waits for the row, mid-transaction", async () => {
      const rows = await sql`select 1 from pg_stat_activity
        where datname = current_database() and application_name = 'arara' and wait_event_type = 'Lock'`;
      return rows.length > 0;
    });
    const sessions = await appBackends();
    await app.stop("SIGKILL");
    expect(await inFlight).toBeInstanceOf(Error);

    release();
    await holder;
    // PostgreSQL ends the dead process's sessions (aborting their transactions) as soon as it notices.
    await waitUntil("PostgreSQL has ended the killed app's sessions", async () => {
      const alive = await appBackends();
      return !sessions.some((pid) => alive.includes(pid));
    });
    expect(await refundedAmount(id)).toBe(0);
    expect(await sql`select 1 from idempotency_keys where key = ${key}`).toHaveLength(0);

    app = await startApp({ env: { ...db.env, ...ENV } });
    const retry = await request(app, "POST", `/api/v1/transactions/${id}/refund`, { amount: 2_000 }, { "idempotency-key": key });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(retry.json.data.refundedAmount).toBe(2_000);
    const again = await request(app, "POST", `/api/v1/transactions/${id}/refund`, { amount: 2_000 }, { "idempotency-key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await refundedAmount(id)).toBe(2_000);
    ledgerCheck(db);
  }, 180_000);

  it("a keyed cash-out that committed before the crash replays its answer byte for byte after the restart", async () => {
    await paidPix(10_000);
    const key = "cash-out-committed-then-crash";
    const body = { amount: 3_000, pixKey: "loja@example.com", description: "Saque ção" };
    const first = await request(app, "POST", "/api/v1/cashOut/request", body, { "idempotency-key": key });
    expect(first.status, first.text).toBe(201);

    await app.stop("SIGKILL");
    app = await startApp({ env: { ...db.env, ...ENV } });

    const retry = await request(app, "POST", "/api/v1/cashOut/request", body, { "idempotency-key": key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from cash_outs`;
    expect(n).toBe(1);
    ledgerCheck(db);
  }, 180_000);
});

describe.skipIf(!onPostgres)("a payment link paid through two app instances at once", () => {
  let db: TestDatabase;
  const apps: AppProcess[] = [];
  let sql: postgres.Sql;

  beforeAll(async () => {
    db = await createServerDatabase();
    apps.push(await startApp({ env: { ...db.env, ...ENV } }));
    apps.push(await startApp({ env: { ...db.env, ...ENV } }));
    sql = postgres(db.env.DATABASE_URL, { max: 2, onnotice: () => {} });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await sql?.end();
    await db?.drop();
  });

  async function token(instance: number, number: string): Promise<string> {
    const res = await request(apps[instance], "POST", `/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
      number,
      holderName: "MARIA DA SILVA",
      expirationMonth: "12",
      expirationYear: "2035",
      cvv: "123",
    });
    expect(res.status, res.text).toBe(200);
    return res.text;
  }

  it("the link page on one instance and another card on a refused charge on the other: one paid charge, one 409", async () => {
    for (let round = 0; round < 10; round++) {
      const link = await request(apps[0], "POST", "/api/v1/checkouts", { amount: 4_000, methods: ["credit_card"] });
      expect(link.status, link.text).toBe(201);
      const { id, secureId } = link.json.data as { id: number; secureId: string };
      const refused = await request(apps[0], "POST", `/checkout/${secureId}/pay`, {
        method: "credit_card",
        payer,
        cardToken: await token(0, "4000000000000002"),
      });
      expect(refused.json.data.status).toBe("refused");
      const [t0, t1] = await Promise.all([token(0, "4242424242424242"), token(1, "4242424242424242")]);
      const results = await Promise.all([
        request(apps[0], "POST", `/checkout/${secureId}/pay`, { method: "credit_card", payer, cardToken: t0 }),
        request(apps[1], "POST", `/checkout/${refused.json.data.secureId}/pay`, { cardToken: t1 }),
      ]);
      expect(results.map((r) => r.status).sort(), results.map((r) => r.text).join("\n")).toEqual([201, 409]);
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from transactions where checkout_id = ${id} and status = 'paid'`;
      expect(n).toBe(1);
    }
    ledgerCheck(db);
  }, 180_000);
});
