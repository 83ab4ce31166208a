/**
 * The account lists are read from their indexes, newest first, never by sorting all of an account's
 * rows (tests/bench/PROFILE.md: an index in DESC NULLS LAST order could not serve `ORDER BY … DESC`,
 * and every page sorted the whole account). And on the embedded database, which has no autovacuum,
 * the maintenance pass gathers the statistics the planner needs and reclaims dead rows.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql, type SQLWrapper } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { cashOuts, checkouts, transactions } from "@/lib/db/schema";
import { autovacuumRuns, maintainDatabase } from "@/lib/db/maintenance";
import { databaseKind } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { CASH_OUTS_NEWEST_FIRST } from "@/lib/services/cash-outs/list-cash-outs";
import { CHECKOUTS_NEWEST_FIRST } from "@/lib/services/checkouts/list-checkouts";
import { TRANSACTIONS_NEWEST_FIRST } from "@/lib/services/transactions/list-transactions";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

const ROWS = 2_000;
let acct: CreatedAccount;

/** `ROWS` copies of `row` for the account, a second apart, in batches. */
async function copies<T extends { id: number; createdAt: Date }>(insert: (rows: Omit<T, "id">[]) => Promise<unknown>, row: T, extra: (i: number) => Partial<T> = () => ({})) {
  const copy: Partial<T> = { ...row };
  delete copy.id;
  const base = row.createdAt.getTime();
  const all = Array.from({ length: ROWS }, (_, i) => ({ ...(copy as Omit<T, "id">), createdAt: new Date(base - (i + 1) * 1000), ...extra(i) }));
  for (let i = 0; i < all.length; i += 500) await insert(all.slice(i, i + 500));
}

beforeAll(async () => {
  acct = await createTestAccount("Loja Planos");
  const db = getDb();
  const tx = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(null) });
  expect(tx.status, tx.text).toBe(201);
  const [t] = await db.select().from(transactions).where(eq(transactions.id, tx.body.data.id));
  await copies((rows) => db.insert(transactions).values(rows), t, () => ({ secureId: crypto.randomUUID() }));
  const link = await call("POST", "/api/v1/checkouts", { auth: acct.secretKey, body: { items: [{ title: "Aula", unitPrice: 5_000, quantity: 1 }] } });
  expect(link.status, link.text).toBe(201);
  const [c] = await db.select().from(checkouts).where(eq(checkouts.id, link.body.data.id));
  await copies((rows) => db.insert(checkouts).values(rows), c, () => ({ secureId: crypto.randomUUID() }));
  const now = new Date();
  const [o] = await db
    .insert(cashOuts)
    .values({ companyId: acct.companyId, status: "completed", amount: 100, fee: 0, pixKey: "loja@example.com", pixKeyType: "email", processor: "sandbox", createdAt: now, updatedAt: now, completedAt: now })
    .returning();
  await copies((rows) => db.insert(cashOuts).values(rows), o);
  // What autovacuum does on PostgreSQL and the maintenance pass on the embedded database.
  await db.execute(sql`analyze transactions`);
  await db.execute(sql`analyze checkouts`);
  await db.execute(sql`analyze cash_outs`);
}, 60_000);

/** The plan of a query, as PostgreSQL's EXPLAIN (FORMAT JSON) gives it. */
async function planOf(query: SQLWrapper): Promise<string> {
  const result = (await getDb().execute(sql`explain (format json) ${query}`)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  return JSON.stringify(rows[0]["QUERY PLAN"]);
}

describe("a list page is read from its index, newest first", () => {
  const lists = [
    ["transactions", "transactions_company_created_idx", () => getDb().select().from(transactions).where(eq(transactions.companyId, acct.companyId)).orderBy(...TRANSACTIONS_NEWEST_FIRST).limit(20)],
    ["payment links", "checkouts_company_idx", () => getDb().select().from(checkouts).where(eq(checkouts.companyId, acct.companyId)).orderBy(...CHECKOUTS_NEWEST_FIRST).limit(20)],
    ["cash-outs", "cash_outs_company_idx", () => getDb().select().from(cashOuts).where(eq(cashOuts.companyId, acct.companyId)).orderBy(...CASH_OUTS_NEWEST_FIRST).limit(20)],
  ] as const;
  for (const [name, index, query] of lists) {
    it(`${name}: an index scan of ${index}, no sort`, async () => {
      const plan = await planOf(query());
      expect(plan).toContain(`"Index Name":"${index}"`);
      expect(plan).not.toContain('"Node Type":"Sort"');
      expect(plan).not.toContain('"Node Type":"Incremental Sort"');
    });
  }

  for (const [name, path] of [
    ["payment links", "/api/v1/checkouts"],
    ["cash-outs", "/api/v1/cashOut"],
  ] as const) {
    it(`${name}: past 1,000 rows the total is the cap, flagged, and the page is the newest`, async () => {
      const res = await call("GET", `${path}?limit=5`, { auth: acct.secretKey });
      expect(res.status, res.text).toBe(200);
      const body = res.body.data as { data: { createdAt: string }[]; pagination: Record<string, unknown> };
      expect(body.pagination).toMatchObject({ page: 1, limit: 5, total: 1000, totalPages: 200, totalCapped: true });
      const dates = body.data.map((r) => Date.parse(r.createdAt));
      expect(dates).toHaveLength(5);
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    });
  }

  it("the transaction list API answers the newest first", async () => {
    const res = await call("GET", "/api/v1/transactions?limit=20", { auth: acct.secretKey });
    expect(res.status, res.text).toBe(200);
    const dates = (res.body.data.data as { createdAt: string }[]).map((t) => Date.parse(t.createdAt));
    expect(dates).toHaveLength(20);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
  });
});

describe("the embedded database's maintenance pass (autovacuum's thresholds)", () => {
  it("analyzes a table changed past the threshold, vacuums one with dead rows past it, and then has nothing to do", async () => {
    const db = getDb();
    await db.execute(sql`create table if not exists maintenance_probe (id int primary key, v int)`);
    await db.execute(sql`truncate maintenance_probe`);
    await db.execute(sql`insert into maintenance_probe select g, 0 from generate_series(1, 1000) g`);
    await db.execute(sql`update maintenance_probe set v = 1 where id <= 600`);
    // PostgreSQL publishes a backend's table counts within about a second.
    await expect
      .poll(async () => (await maintainDatabase(db)).find((s) => s.table === "maintenance_probe"), { timeout: 15_000, interval: 500 })
      .toMatchObject({ table: "maintenance_probe", action: "vacuum", ms: expect.any(Number) });
    const result = (await db.execute(
      sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed from pg_stat_user_tables where relname = 'maintenance_probe'`,
    )) as unknown;
    const [stats] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { dead: number; vacuumed: boolean; analyzed: boolean }[];
    expect(stats).toMatchObject({ dead: 0, vacuumed: true, analyzed: true });
    const again = await maintainDatabase(db);
    expect(again.find((s) => s.table === "maintenance_probe")).toBeUndefined();
    await db.execute(sql`drop table maintenance_probe`);
  }, 30_000);
});

describe("the background pass: autovacuum's work only where autovacuum does not run", () => {
  it("reads the server's autovacuum setting; where autovacuum does not run, a pass analyzes a changed table", async () => {
    const db = getDb();
    await db.execute(sql`create table if not exists maintenance_probe2 (id int primary key)`);
    await db.execute(sql`truncate maintenance_probe2`);
    await db.execute(sql`insert into maintenance_probe2 select g from generate_series(1, 500) g`);
    const kind = databaseKind();
    const [{ on }] = rowsOf<{ on: string }>(await db.execute(sql`select current_setting('autovacuum') as on`));
    // PGlite reports the setting on too; the background job checks it on PostgreSQL only (lib/jobs.ts).
    expect(await autovacuumRuns(db)).toBe(on === "on");
    const serverDoesIt = kind === "postgres" && on === "on";
    if (!serverDoesIt) {
      // The table was never analyzed and 500 rows changed: the pass analyzes it (once the counts are published).
      await expect
        .poll(async () => (await maintainDatabase(db)).find((s) => s.table === "maintenance_probe2"), { timeout: 15_000, interval: 500 })
        .toMatchObject({ table: "maintenance_probe2", action: "analyze" });
    }
    await db.execute(sql`drop table maintenance_probe2`);
  }, 30_000);
});

describe("statistics only for the columns queries filter by (migration 0015)", () => {
  it("an ANALYZE gathers none for the wide documents (payload, customer, items, the PIX code) and keeps those the planner reads", async () => {
    const db = getDb();
    // beforeAll wrote thousands of transactions, a timeline and events for them.
    await db.execute(sql`analyze transactions`);
    await db.execute(sql`analyze webhook_events`);
    const stats = rowsOf<{ table: string; column: string }>(
      await db.execute(sql`select tablename as "table", attname as "column" from pg_stats where schemaname = 'public' and tablename in ('transactions', 'webhook_events')`),
    ).map((r) => `${r.table}.${r.column}`);
    for (const kept of ["transactions.company_id", "transactions.created_at", "transactions.status", "transactions.customer_document", "webhook_events.delivery_state", "webhook_events.transaction_id"]) {
      expect(stats).toContain(kept);
    }
    for (const skipped of ["webhook_events.payload", "transactions.customer", "transactions.items", "transactions.pix_qrcode", "transactions.metadata"]) {
      expect(stats).not.toContain(skipped);
    }
  }, 30_000);
});

describe("the embedded database's statistics come from a small sample", () => {
  // ANALYZE runs on the app's one thread there (lib/db/client.ts): default_statistics_target 10 makes it
  // sample 3,000 rows and keep up to 11 histogram bounds, instead of 30,000 rows and 101 bounds.
  it("a column's histogram has at most 11 bounds on PGlite, and PostgreSQL's default 101 on a server", async () => {
    const db = getDb();
    await db.execute(sql`analyze transactions`);
    const [row] = rowsOf<{ target: string; bounds: number }>(
      await db.execute(sql`select current_setting('default_statistics_target') as target,
        coalesce(array_length(histogram_bounds::text::text[], 1), 0) as bounds
        from pg_stats where schemaname = 'public' and tablename = 'transactions' and attname = 'created_at'`),
    );
    // beforeAll wrote 2,000 charges a second apart: every created_at differs, so the histogram is full.
    if (databaseKind() === "pglite") {
      expect(row).toMatchObject({ target: "10", bounds: 11 });
    } else {
      expect(Number(row.bounds)).toBe(Number(row.target) + 1);
    }
  }, 30_000);
});
