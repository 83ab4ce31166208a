/**
 * The dashboard's transaction list splits the API's one `pending` status: "Pendente" lists charges
 * that can still be paid, "Expirado" the PIX and boletos past their expiry that nobody paid. The API
 * keeps `pending` for both (the contract), and takes no such filter.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { ListTransactionsQuery, listTransactions } from "@/lib/services/transactions/list-transactions";

let a: CreatedAccount;
const ids: Record<"live" | "expired" | "paid", number> = { live: 0, expired: 0, paid: 0 };
const now = new Date();

beforeAll(async () => {
  a = await createTestAccount("Loja Expirados");
  for (const k of ["live", "expired", "paid"] as const) {
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: pixCharge(null) });
    expect(res.status, res.text).toBe(201);
    ids[k] = res.body.data.id;
  }
  // One PIX ran out of time a minute ago; one ends exactly now (expired: the same instant the payer's page uses).
  await getDb().update(transactions).set({ expiresAt: new Date(now.getTime() - 60_000) }).where(eq(transactions.id, ids.expired));
  const paid = await call("PUT", `/api/v1/transactions/${ids.paid}/test`, { auth: a.secretKey, body: { status: "paid" } });
  expect(paid.status, paid.text).toBe(200);
});

async function listed(opts: Parameters<typeof listTransactions>[2], status?: string) {
  const account = (await findAccountById(a.companyId))!;
  const { rows, pagination } = await listTransactions({ account }, ListTransactionsQuery.parse({ limit: "100", ...(status ? { status } : {}) }), opts);
  return { ids: rows.map((r) => r.id).sort(), total: pagination.total };
}

describe("the dashboard's Pendente and Expirado", () => {
  it("Pendente lists only the charges that can still be paid; Expirado only those past their expiry", async () => {
    expect(await listed({ pendingExpiry: "live", now })).toEqual({ ids: [ids.live], total: 1 });
    expect(await listed({ pendingExpiry: "expired", now })).toEqual({ ids: [ids.expired], total: 1 });
    // Without the split: every status, as before.
    expect((await listed({})).ids).toEqual([ids.live, ids.expired, ids.paid].sort());
  });

  it("a charge whose expiry is this very instant is Expirado, as its page says", async () => {
    const [row] = await getDb().select({ expiresAt: transactions.expiresAt }).from(transactions).where(eq(transactions.id, ids.live));
    expect((await listed({ pendingExpiry: "expired", now: row.expiresAt! })).ids).toContain(ids.live);
    expect((await listed({ pendingExpiry: "live", now: row.expiresAt! })).ids).not.toContain(ids.live);
  });

  it("the API still answers both as pending and takes no 'expired' status filter", async () => {
    const res = await call("GET", "/api/v1/transactions?status=pending&limit=100", { auth: a.secretKey });
    expect(res.status, res.text).toBe(200);
    expect((res.body.data.data as { id: number }[]).map((t) => t.id).sort()).toEqual([ids.live, ids.expired].sort());
    const refused = await call("GET", "/api/v1/transactions?status=expired", { auth: a.secretKey });
    expect(refused.status).toBe(400);
  });
});
