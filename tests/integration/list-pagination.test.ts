/**
 * GET /api/v1/transactions paging: the page/limit shape stays as it was, the total is counted up to
 * TOTAL_CAP (then flagged `totalCapped`), and the keyset cursor walks every row once, newest first.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { TOTAL_CAP } from "@/lib/http/pagination";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let small: CreatedAccount;
let big: CreatedAccount;
const smallIds: number[] = [];

beforeAll(async () => {
  small = await createTestAccount("Loja Pequena");
  big = await createTestAccount("Loja Grande");
  for (let i = 0; i < 25; i++) {
    const res = await call("POST", "/api/v1/transactions", { auth: small.secretKey, body: pixCharge(null, 1000 + i) });
    expect(res.status, res.text).toBe(201);
    smallIds.push(res.body.data.id);
  }
  // More rows than the cap for the other account: copies of one created through the API.
  const res = await call("POST", "/api/v1/transactions", { auth: big.secretKey, body: pixCharge(null) });
  expect(res.status, res.text).toBe(201);
  const [row] = await getDb().select().from(transactions).where(eq(transactions.id, res.body.data.id));
  const copy: Partial<typeof row> = { ...row };
  delete copy.id;
  const base = row.createdAt.getTime();
  const copies = Array.from({ length: TOTAL_CAP + 5 }, (_, i) => ({ ...(copy as Omit<typeof row, "id">), secureId: crypto.randomUUID(), createdAt: new Date(base - (i + 1) * 1000) }));
  for (let i = 0; i < copies.length; i += 500) await getDb().insert(transactions).values(copies.slice(i, i + 500));
});

async function list(account: CreatedAccount, query: string) {
  const res = await call("GET", `/api/v1/transactions?${query}`, { auth: account.secretKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { data: { id: number }[]; pagination: Record<string, unknown> };
}

describe("GET /api/v1/transactions paging", () => {
  it("keeps the page/limit shape, with the exact total below the cap", async () => {
    const page = await list(small, "limit=10&page=3");
    expect(page.pagination).toStrictEqual({ page: 3, limit: 10, total: 25, totalPages: 3 });
    expect(page.data.map((t) => t.id)).toEqual([...smallIds].reverse().slice(20));
  });

  it("counts up to the cap and says so past it", async () => {
    const page = await list(big, "limit=100");
    expect(page.pagination).toStrictEqual({ page: 1, limit: 100, total: TOTAL_CAP, totalPages: TOTAL_CAP / 100, totalCapped: true });
    expect(page.data).toHaveLength(100);
  });

  it("walks every row once, newest first, with the cursor", async () => {
    const seen: number[] = [];
    let cursor = "";
    for (let n = 0; n < 10; n++) {
      const page = await list(small, `limit=10&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...page.data.map((t) => t.id));
      expect(page.pagination.total).toBe(25);
      if (page.pagination.nextCursor === null) break;
      cursor = page.pagination.nextCursor as string;
    }
    expect(seen).toEqual([...smallIds].reverse());
  });

  it("walks past the cap with the cursor", async () => {
    let cursor = "";
    let rows = 0;
    for (let n = 0; n < 20 && cursor !== null; n++) {
      const page = await list(big, `limit=100&cursor=${encodeURIComponent(cursor)}`);
      rows += page.data.length;
      cursor = page.pagination.nextCursor as string;
    }
    expect(rows).toBe(TOTAL_CAP + 6);
  });

  it("refuses a cursor it did not make with a 400 naming the field", async () => {
    const res = await call("GET", "/api/v1/transactions?cursor=bm9wZQ", { auth: small.secretKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "cursor" })]);
  });

  const FORGED = ["+010000-01-01T00:00:00.000Z|1", "-271821-04-20T00:00:00.000Z|1", "2026-01-01|1", "2026-13-01T00:00:00.000Z|1", "0000-01-01T00:00:00.000Z|1"];
  it.each(FORGED.flatMap((f) => ["/api/v1/transactions", "/api/v1/cashOut", "/api/v1/checkouts", "/v1/cashOut", "/v1/checkouts"].map((list) => [f, list])))(
    "refuses a forged cursor with a date PostgreSQL cannot compare (%s) on %s with a 400, not a 500",
    async (forged, list) => {
      const res = await call("GET", `${list}?cursor=${Buffer.from(forged).toString("base64url")}`, { auth: small.secretKey });
      expect(res.status, res.text).toBe(400);
      const body = res.body.errors ? res.body : (res.body.data ?? res.body);
      expect(body.errors ?? res.body.errors).toEqual([expect.objectContaining({ field: "cursor" })]);
    },
  );

  it.each([
    ["limit=abc", "limit", "must be a whole number from 1 to 100"],
    ["limit=1.5", "limit", "must be a whole number from 1 to 100"],
    ["limit=101", "limit", "must be a whole number from 1 to 100"],
    ["page=abc", "page", "must be a whole number, 1 or more"],
    ["page=99999999999999999999", "page", "must be a whole number, 1 or more"],
  ])("answers %s with one error in words naming the field", async (query, field, message) => {
    const res = await call("GET", `/api/v1/transactions?${query}`, { auth: small.secretKey });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([{ field, message }]);
  });

  it("status=approved (the family's name, and a card's event kind) lists the paid transactions", async () => {
    const [paidId] = smallIds;
    await getDb().update(transactions).set({ status: "paid", paidAt: new Date() }).where(eq(transactions.id, paidId));
    for (const status of ["approved", "paid", "APPROVED,paid"]) {
      const page = await list(small, `status=${status}`);
      expect(page.data.map((t) => t.id), status).toEqual([paidId]);
    }
    await getDb().update(transactions).set({ status: "pending", paidAt: null }).where(eq(transactions.id, paidId));
  });

  it("searches LIKE's wildcards as themselves: q=% or q=_ matches no transaction of this account", async () => {
    for (const q of ["%", "_", "\\"]) {
      const page = await list(small, `q=${encodeURIComponent(q)}`);
      expect(page.data, q).toEqual([]);
    }
  });
});
