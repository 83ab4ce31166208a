/**
 * Broken object level authorization: every route that takes an id, called with another account's
 * key, answers exactly as for an id that does not exist (404) and changes nothing.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { createCheckout, createPix, paidPix, requestCashOut } from "../helpers/flows";
import { getDb } from "@/lib/db/client";
import { OPERATIONS } from "@/lib/openapi/operations";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let owner: CreatedAccount;
let intruder: CreatedAccount;
const ids: Record<string, Record<string, number>> = {};

/**
 * Everything the database holds, as text: any change by a refused request shows up here. The rate
 * limit counters are left out: every request counts there, refused or not, and they hold no data.
 */
async function snapshot(): Promise<string> {
  const tables = (await getDb().execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { table_name: string }[] | { rows: { table_name: string }[] };
  const names = (Array.isArray(tables) ? tables : tables.rows).map((r) => r.table_name).filter((t) => !t.startsWith("__drizzle") && t !== "rate_limit_counters");
  const out: string[] = [];
  for (const t of names) {
    const res = (await getDb().execute(sql.raw(`select * from "${t}" order by 1`))) as unknown as unknown[] | { rows: unknown[] };
    out.push(`${t}: ${JSON.stringify(Array.isArray(res) ? res : res.rows)}`);
  }
  return out.join("\n");
}

beforeAll(async () => {
  owner = await createTestAccount("Owner");
  intruder = await createTestAccount("Intruder");
  for (const acct of [owner, intruder]) {
    const paid = await paidPix(acct, 30_000);
    const pending = await createPix(acct.secretKey, { postbackUrl: "http://127.0.0.1:9/hook", shipping: { fee: 0, address: null } });
    const events = await call("GET", `/api/v1/transactions/${pending.id}/webhooks`, { auth: acct.secretKey });
    const cashOut = await requestCashOut(acct.secretKey, { amount: 1000, pixKey: "maria@example.com" });
    const checkout = await createCheckout(acct.secretKey);
    ids[acct.secretKey] = { paid: paid.id, pending: pending.id, event: events.body.data[0].id, cashOut: cashOut.id, checkout: checkout.id };
  }
});

/** For each operation with an id in its path: the owner's resource to aim at, and a body that would succeed. */
function target(path: string, method: string): { url: (id: Record<string, number>) => string; body?: unknown } {
  const key = `${method.toUpperCase()} ${path}`;
  const table: Record<string, { url: (id: Record<string, number>) => string; body?: unknown }> = {
    "GET /api/v1/transactions/{id}": { url: (i) => `/api/v1/transactions/${i.paid}` },
    "POST /api/v1/transactions/{id}/refund": { url: (i) => `/api/v1/transactions/${i.paid}/refund`, body: {} },
    "PUT /api/v1/transactions/{id}/test": { url: (i) => `/api/v1/transactions/${i.pending}/test`, body: { status: "paid" } },
    "PUT /api/v1/transactions/{id}/delivery": { url: (i) => `/api/v1/transactions/${i.pending}/delivery`, body: { status: "delivered" } },
    "GET /api/v1/transactions/{id}/webhooks": { url: (i) => `/api/v1/transactions/${i.pending}/webhooks` },
    "POST /api/v1/webhooks/{eventId}/redeliver": { url: (i) => `/api/v1/webhooks/${i.event}/redeliver` },
    "POST /api/v1/webhooks/{eventId}/skip": { url: (i) => `/api/v1/webhooks/${i.event}/skip` },
    "GET /api/v1/cashOut/{id}": { url: (i) => `/api/v1/cashOut/${i.cashOut}` },
    "GET /api/v1/cashOut/{id}/webhooks": { url: (i) => `/api/v1/cashOut/${i.cashOut}/webhooks` },
    "GET /api/v1/checkouts/{id}": { url: (i) => `/api/v1/checkouts/${i.checkout}` },
  };
  const t = table[key];
  if (!t) throw new Error(`No BOLA case for ${key}: add one (every route with an id must be covered)`);
  return t;
}

// The PSP's notification routes (/api/v1/psp/api-pix/{token}) take no merchant key: the token is an
// unguessable id of one PSP configuration, and a call only wakes a re-read at the PSP
// (tests/integration/api-pix-processor.test.ts covers unknown tokens). Every merchant route is here.
const withId = OPERATIONS.filter((o) => /\{\w+\}/.test(o.path) && !o.path.startsWith("/api/v1/psp/"));

describe("BOLA: another account's ids", () => {
  it("covers every operation of the registry that takes an id", () => {
    expect(withId.length).toBeGreaterThanOrEqual(8);
    for (const o of withId) expect(() => target(o.path, o.method)).not.toThrow();
  });

  for (const o of withId) {
    it(`${o.method.toUpperCase()} ${o.path}: 404 like a missing id, and nothing changes`, async () => {
      const t = target(o.path, o.method);
      const method = o.method.toUpperCase();
      const before = await snapshot();
      const res = await call(method, t.url(ids[owner.secretKey]), { auth: intruder.secretKey, body: t.body });
      expect(res.status, res.text).toBe(404);
      expect(res.body.code).toBe("not_found");
      expect(await snapshot()).toEqual(before);

      // Indistinguishable from an id that exists nowhere: same status, code and message.
      const missing = await call(method, t.url({ paid: 99_999_999, pending: 99_999_999, event: 99_999_999, cashOut: 99_999_999, checkout: 99_999_999 }), {
        auth: intruder.secretKey,
        body: t.body,
      });
      expect({ status: missing.status, code: missing.body.code, message: missing.body.message }).toEqual({
        status: res.status,
        code: res.body.code,
        message: res.body.message,
      });

      // The owner's own key still reaches it (the id was real).
      const mine = await call(method, t.url(ids[owner.secretKey]), { auth: owner.secretKey, body: method === "GET" ? undefined : t.body });
      expect(mine.status, mine.text).not.toBe(404);
    });
  }
});
