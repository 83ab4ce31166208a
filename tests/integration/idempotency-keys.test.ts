/**
 * Idempotency-Key: the key's record and the operation are one database transaction. What a retry
 * with the same key gets is decided by the database: the committed result replayed byte for byte,
 * or (when nothing committed) one run. Keys are scoped by account, method and canonical route.
 * The crash case (kill -9 mid-request, restart, retry) is the process test idempotency-crash.test.ts.
 */
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseKind, getDb } from "@/lib/db/client";
import { cashOuts, companies, idempotencyKeys, transactions } from "@/lib/db/schema";
import { onceForFormKey } from "@/lib/auth/idempotent-action";
import { FORM_KEY_FIELD } from "@/lib/auth/form-key";
import type { DashboardContext } from "@/lib/auth/session";
import { systemContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody } from "../helpers/cash-in";
import { balanceOf, cashOut, expectBooksAgree, paidPix } from "../helpers/money";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Chaves");
});

const keyed = (key: string) => ({ "idempotency-key": key });
const refund = (path: string, body: unknown, key: string, who = a) => call("POST", path, { auth: who.secretKey, body, headers: keyed(key) });
const onPostgres = () => databaseKind() === "postgres";

async function refundedAmount(id: number): Promise<number> {
  const [t] = await getDb().select().from(transactions).where(eq(transactions.id, id));
  return t.refundedAmount;
}

describe("keys are scoped by account, method and canonical route", () => {
  it("a refund sent to /00N/refund and then /N/refund with one key is one refund", async () => {
    const t = await paidPix(a, 2_000);
    const key = randomUUID();
    const first = await refund(`/api/v1/transactions/000${t.id}/refund`, { amount: 500 }, key);
    expect(first.status, first.text).toBe(200);
    const second = await refund(`/api/v1/transactions/${t.id}/refund`, { amount: 500 }, key);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first.text);
    expect(await refundedAmount(t.id)).toBe(500);
    await expectBooksAgree(a);
  });

  it("one key on two transactions' refunds is two operations", async () => {
    const t1 = await paidPix(a, 1_000);
    const t2 = await paidPix(a, 1_000);
    const key = randomUUID();
    expect((await refund(`/api/v1/transactions/${t1.id}/refund`, {}, key)).status).toBe(200);
    const other = await refund(`/api/v1/transactions/${t2.id}/refund`, {}, key);
    expect(other.status).toBe(200);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(await refundedAmount(t2.id)).toBe(1_000);
  });

  it("one key used by two accounts is two operations", async () => {
    const b = await createTestAccount("Outra Loja Chaves");
    const key = randomUUID();
    const body = baseBody({ externalRef: "two-accounts" });
    const mine = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers: keyed(key) });
    const theirs = await call("POST", "/api/v1/transactions", { auth: b.secretKey, body, headers: keyed(key) });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });
});

describe("one key across the two dialects (/v1 and /api/v1 run the same operations)", () => {
  const post = (m: CreatedAccount, path: string, body: unknown, key: string) => call("POST", path, { auth: m.secretKey, body, headers: keyed(key) });

  it("a cash-out sent on /v1 and retried on /api/v1 with its key is one cash-out: the retry is a 409 that names the path", async () => {
    const m = await createTestAccount("Loja Saque Dois Dialetos");
    await paidPix(m, 10_000);
    const key = randomUUID();
    const body = { amount: 1_000, pixKey: "loja@example.com" };
    const first = await post(m, "/v1/cashOut/request", body, key);
    expect(first.status, first.text).toBe(201);
    const second = await post(m, "/api/v1/cashOut/request", body, key);
    expect(second.status, second.text).toBe(409);
    expect(second.body.code).toBe("idempotency_conflict");
    expect(second.body.message).toContain("POST /v1/cashOut/request");
    expect(second.headers.get("retry-after")).toBeNull();
    // The first path still replays its own answer.
    const again = await post(m, "/v1/cashOut/request", body, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, m.companyId))).toHaveLength(1);
    expect((await balanceOf(m)).reserved).toBe(1_000);
    await expectBooksAgree(m);
  });

  it("a charge sent on /api/v1 and retried on /v1 with its key is one charge", async () => {
    const m = await createTestAccount("Loja Cobranca Dois Dialetos");
    const key = randomUUID();
    const body = baseBody({ externalRef: "two-dialects" });
    const first = await post(m, "/api/v1/transactions", body, key);
    expect(first.status, first.text).toBe(201);
    const second = await post(m, "/v1/transactions", body, key);
    expect(second.status, second.text).toBe(409);
    expect(second.body.message).toContain("POST /api/v1/transactions");
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, m.companyId))).toHaveLength(1);
  });

  it("a 409 on the other path is not remembered with the key, and another key on the other path runs", async () => {
    const m = await createTestAccount("Loja Chave Nova Dialeto");
    const key = randomUUID();
    const body = baseBody({ externalRef: "two-dialects-new-key" });
    expect((await post(m, "/api/v1/transactions", body, key)).status).toBe(201);
    expect((await post(m, "/v1/transactions", body, key)).status).toBe(409);
    expect(await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.companyId, m.companyId))).toHaveLength(1);
    expect((await post(m, "/v1/transactions", body, randomUUID())).status).toBe(201);
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, m.companyId))).toHaveLength(2);
  });

  it("sent on both paths at once with one key: one charge", async () => {
    const m = await createTestAccount("Loja Corrida Dialetos");
    const key = randomUUID();
    const body = baseBody({ externalRef: "two-dialects-race" });
    const results = await Promise.all(["/api/v1/transactions", "/v1/transactions", "/api/v1/transactions", "/v1/transactions"].map((p) => post(m, p, body, key)));
    const created = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(created).toHaveLength(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, m.companyId))).toHaveLength(1);
  });
});

describe("replays", () => {
  it("replay the first response byte for byte, with its status and content type", async () => {
    const key = randomUUID();
    const body = baseBody({ externalRef: "bytes", metadata: { z: 1, a: "ção" } });
    const first = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers: keyed(key) });
    const second = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers: keyed(key) });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a 4xx of the service is remembered and its writes are rolled back", async () => {
    const poor = await createTestAccount("Loja Sem Saldo");
    const key = randomUUID();
    const body = { amount: 5_000, pixKey: "loja@example.com" };
    const first = await cashOut(poor, body, keyed(key));
    expect(first.status).toBe(422);
    expect(first.body.code).toBe("insufficient_balance");
    expect(await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, poor.companyId))).toEqual([]);
    // Money arrives; the same key still answers what it answered (a new attempt needs a new key).
    await paidPix(poor, 10_000);
    const again = await cashOut(poor, body, keyed(key));
    expect(again.status).toBe(422);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await cashOut(poor, body, keyed(randomUUID()))).status).toBe(201);
    await expectBooksAgree(poor);
  });

  it("the same key with another body is a 409 that moves nothing", async () => {
    const t = await paidPix(a, 3_000);
    const key = randomUUID();
    expect((await refund(`/api/v1/transactions/${t.id}/refund`, { amount: 100 }, key)).status).toBe(200);
    const other = await refund(`/api/v1/transactions/${t.id}/refund`, { amount: 200 }, key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("idempotency_conflict");
    // A client's mistake, not a key still in use: nothing to retry, so no Retry-After.
    expect(other.headers.get("retry-after")).toBeNull();
    expect(await refundedAmount(t.id)).toBe(100);
  });

  it("a cash-out retried with its key is one cash-out", async () => {
    const m = await createTestAccount("Loja Saque Chave");
    await paidPix(m, 10_000);
    const key = randomUUID();
    const body = { amount: 1_000, pixKey: "loja@example.com" };
    const first = await cashOut(m, body, keyed(key));
    const second = await cashOut(m, body, keyed(key));
    expect(first.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, m.companyId))).toHaveLength(1);
    expect((await balanceOf(m)).reserved).toBe(1_000);
    await expectBooksAgree(m);
  });
});

describe("concurrency is decided by the database", () => {
  it("two refunds at once with one key: one refund; on PostgreSQL the other is a 409 at once, on PGlite it replays", async () => {
    const t = await paidPix(a, 4_000);
    const key = randomUUID();
    const results = await Promise.all([0, 1, 2].map(() => refund(`/api/v1/transactions/${t.id}/refund`, { amount: 1_000 }, key)));
    const ok = results.filter((r) => r.status === 200);
    if (onPostgres()) {
      // Whichever runs first holds the key's lock; the others see it busy (or, if it has already
      // committed, replay it).
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.body.message).toMatch(/still being processed/);
      }
    } else {
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
    }
    for (const r of ok) expect(r.body.data.refundedAmount).toBe(1_000);
    expect(await refundedAmount(t.id)).toBe(1_000);
    await expectBooksAgree(a);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("the key's record commits with the operation (PostgreSQL)", () => {
  let sql: postgres.Sql;
  beforeAll(() => {
    sql = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    return async () => {
      await sql.end();
    };
  });

  /** Holds a row lock on the transaction from another connection while `during` runs. */
  async function whileLocked<T>(transactionId: number, during: (release: () => void) => Promise<T>): Promise<T> {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = sql.begin(async (q) => {
      await q`select id from transactions where id = ${transactionId} for update`;
      locked();
      await released;
    });
    await isLocked;
    try {
      return await during(release);
    } finally {
      release();
      await holder;
    }
  }

  async function blockedBackends(): Promise<{ pid: number }[]> {
    return sql<{ pid: number }[]>`select pid from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
  }

  async function waitForBlocked(): Promise<{ pid: number }[]> {
    for (let i = 0; i < 200; i++) {
      const rows = await blockedBackends();
      if (rows.length) return rows;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("the request never reached the locked row");
  }

  it("while a keyed refund waits mid-transaction, no claim of its key is visible to anyone else", async () => {
    const t = await paidPix(a, 2_000);
    const key = randomUUID();
    await whileLocked(t.id, async (release) => {
      const inFlight = refund(`/api/v1/transactions/${t.id}/refund`, {}, key);
      await waitForBlocked();
      const claims = await sql`select 1 from idempotency_keys where key = ${key}`;
      expect(claims).toHaveLength(0);
      // A second request with the key meanwhile: busy, at once (it does not wait for the row).
      const busy = await refund(`/api/v1/transactions/${t.id}/refund`, {}, key);
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe("idempotency_conflict");
      // The one idempotency_conflict worth retrying says when: the others carry no Retry-After.
      expect(busy.headers.get("retry-after")).toBe("1");
      release();
      const done = await inFlight;
      expect(done.status).toBe(200);
    });
    const [rec] = await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rec.responseStatus).toBe(200);
    expect(await refundedAmount(t.id)).toBe(2_000);
  });

  it("a keyed refund that dies mid-transaction (a 500) is not remembered: the retry runs once", async () => {
    const t = await paidPix(a, 2_000);
    const key = randomUUID();
    const failed = await whileLocked(t.id, async () => {
      const inFlight = refund(`/api/v1/transactions/${t.id}/refund`, {}, key);
      const [blocked] = await waitForBlocked();
      await sql`select pg_cancel_backend(${blocked.pid})`;
      return inFlight;
    });
    expect(failed.status).toBe(500);
    expect(await refundedAmount(t.id)).toBe(0);
    const retry = await refund(`/api/v1/transactions/${t.id}/refund`, {}, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await refundedAmount(t.id)).toBe(2_000);
    await expectBooksAgree(a);
  });
});

describe("a dashboard form's work after its commit", () => {
  const formWith = (key: string) => {
    const f = new FormData();
    f.set(FORM_KEY_FIELD, key);
    return f;
  };
  async function dashboardCtx(): Promise<DashboardContext> {
    const [account] = await getDb().select().from(companies).where(eq(companies.id, a.companyId));
    return { ...systemContext(account), actor: "dashboard", user: { id: 0, email: "dono@loja.example", name: "Dono" } } as unknown as DashboardContext;
  }
  const recordOf = async (key: string) => (await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];

  it("runs once the outcome has committed, outside the transaction, and its outcome is the one remembered", async () => {
    const ctx = await dashboardCtx();
    const key = randomUUID();
    let seenFromOutside: unknown;
    const first = await onceForFormKey(ctx, formWith(key), { scope: "after-commit test", request: { n: 1 } }, async (_tx, afterCommit) => {
      afterCommit(async () => {
        // Another connection (no transaction of the form's open) sees the committed record.
        seenFromOutside = (await recordOf(key))?.responseStatus;
        return { status: "ok", message: "depois do commit" };
      });
      return { status: "ok", message: "no commit" };
    });
    expect(seenFromOutside).toBe(200);
    expect(first).toMatchObject({ status: "ok", message: "depois do commit" });
    // The double submit replays the outcome after the follow-up, without running anything again.
    const again = await onceForFormKey(ctx, formWith(key), { scope: "after-commit test", request: { n: 1 } }, async () => {
      throw new Error("must not run twice");
    });
    expect(again).toEqual(first);
  });

  it("a business error after the commit is the outcome; any other failure leaves the committed one", async () => {
    const ctx = await dashboardCtx();
    const refusedKey = randomUUID();
    const refused = await onceForFormKey(ctx, formWith(refusedKey), { scope: "after-commit test", request: { n: 2 } }, async (_tx, afterCommit) => {
      afterCommit(async () => {
        throw new ServiceError("unprocessable", "O PSP recusou.");
      });
      return { status: "ok", message: "pedido" };
    });
    expect(refused).toMatchObject({ status: "error", message: expect.stringContaining("O PSP recusou.") });
    expect((await recordOf(refusedKey)).responseStatus).toBe(422);

    const brokenKey = randomUUID();
    const broken = await onceForFormKey(ctx, formWith(brokenKey), { scope: "after-commit test", request: { n: 3 } }, async (_tx, afterCommit) => {
      afterCommit(async () => {
        throw new Error("connection lost");
      });
      return { status: "ok", message: "pedido registrado" };
    });
    expect(broken).toMatchObject({ status: "ok", message: "pedido registrado" });
    expect(JSON.parse((await recordOf(brokenKey)).responseBody!)).toMatchObject({ message: "pedido registrado" });

    // A form whose own work failed hands nothing over.
    let ran = false;
    const failed = await onceForFormKey(ctx, formWith(randomUUID()), { scope: "after-commit test", request: { n: 4 } }, async (_tx, afterCommit) => {
      afterCommit(async () => {
        ran = true;
        return { status: "ok", message: "não devia" };
      });
      throw new ServiceError("unprocessable", "Valor inválido.");
    });
    expect(failed).toMatchObject({ status: "error" });
    expect(ran).toBe(false);
  });
});
