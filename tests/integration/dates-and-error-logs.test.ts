/**
 * Dates a client writes (list filters, a link's expiry) are parsed strictly: out-of-range years,
 * days that do not exist and numbers are a 400 naming the field, never a 500 from the database. And
 * an unhandled error's log line carries none of the personal data the request did.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { setLogger } from "@/lib/logger";
import { captureLogLines } from "../helpers/logs";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Datas");
});

const BAD_DATES = [
  "0000-01-01", // year 0: no such year in PostgreSQL
  "10000-01-01",
  "+010000-01-01",
  "275760-09-14", // JavaScript's last day
  "-1", // JavaScript reads it as 2001-01-01
  "-000001-01-01",
  "99999999999999999999",
  "1700000000",
  "2026-02-30", // JavaScript rolls it over to March 2
  "2025-02-29",
  "2026-13-01",
  "2026-01-01T24:00:00Z",
  "2026-01-01T10:00:00+25:00",
  "0001-01-01T00:00:00+01:00", // the instant is in year 0
  "9999-12-31T23:00:00-03:00", // the instant is in year 10000
  "amanhã",
  "",
];

const LISTS = ["/api/v1/transactions", "/api/v1/balance/statement", "/api/v1/cashOut"];

describe("date filters of the lists", () => {
  it.each(LISTS.flatMap((path) => BAD_DATES.flatMap((d) => ["from", "to"].map((field) => [path, field, d]))))(
    "GET %s?%s=%j is a 400 naming the field",
    async (path, field, value) => {
      const res = await call("GET", `${path}?${field}=${encodeURIComponent(value)}`, { auth: a.secretKey });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ success: false, status: 400, code: "validation_error" });
      expect(res.body.errors).toEqual([{ field, message: expect.stringContaining("ISO 8601") }]);
    },
  );

  it.each(LISTS.flatMap((path) => ["0001-01-01", "9999-12-31", "2024-02-29", "2026-01-31T12:00:00Z", "2026-01-31T09:00:00-03:00", "2026-01-31T12:00"].map((d) => [path, d])))(
    "GET %s accepts from=to=%j (years 1 to 9999, real days)",
    async (path, value) => {
      const res = await call("GET", `${path}?from=${encodeURIComponent(value)}&to=${encodeURIComponent(value)}`, { auth: a.secretKey });
      expect(res.status, res.text).toBe(200);
    },
  );

  it("still finds what was created in the range, with a date-only `to` covering its whole day", async () => {
    const created = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000 } });
    expect(created.status, created.text).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const tx = await call("GET", `/api/v1/transactions?from=0001-01-01&to=${today}`, { auth: a.secretKey });
    expect(tx.status, tx.text).toBe(200);
    const none = await call("GET", `/api/v1/transactions?from=9999-12-31`, { auth: a.secretKey });
    expect(none.status, none.text).toBe(200);
    expect(none.body.data.pagination.total).toBe(0);
  });
});

describe("a payment link's expiresAt", () => {
  it.each(BAD_DATES)("expiresAt %j is a 400 naming the field, and no link is created", async (expiresAt) => {
    const before = (await call("GET", "/api/v1/checkouts", { auth: a.secretKey })).body.data.pagination.total;
    const res = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000, expiresAt } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([{ field: "expiresAt", message: expect.stringContaining("ISO 8601") }]);
    expect((await call("GET", "/api/v1/checkouts", { auth: a.secretKey })).body.data.pagination.total).toBe(before);
  });

  it.each([0, -1, 1e21, 275760, Number.MAX_SAFE_INTEGER, true, null, {}])("expiresAt %j (not a string) is a 400 naming the field", async (expiresAt) => {
    const res = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000, expiresAt } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([{ field: "expiresAt", message: expect.any(String) }]);
  });

  it("takes an offset date-time as that instant, and a far but valid one", async () => {
    const res = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000, expiresAt: "2099-12-31T23:59:59-03:00" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.expiresAt).toBe("2100-01-01T02:59:59.000Z");
    const far = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000, expiresAt: "9999-12-31T23:59:59Z" } });
    expect(far.status, far.text).toBe(201);
  });
});

describe("an unhandled error's log line", () => {
  afterEach(() => setLogger(null));

  it("has the request id and the error, but no e-mail, CPF or query string of the request", async () => {
    const { lines } = captureLogLines();
    // The list's table is gone for a moment: the query fails with the filters as its parameters.
    await getDb().execute(sql`alter table transactions rename to transactions_away`);
    let res;
    try {
      res = await call(
        "GET",
        "/api/v1/transactions?email=maria.silva%40example.com&documentNumber=111.444.777-35&externalRef=pedido-maria&from=2026-01-01",
        { auth: a.secretKey },
      );
    } finally {
      await getDb().execute(sql`alter table transactions_away rename to transactions`);
    }
    expect(res.status).toBe(500);
    const requestId = res.body.requestId ?? res.headers.get("x-request-id");
    const errorLines = lines.filter((l) => JSON.parse(l).msg === "unhandled error");
    expect(errorLines).toHaveLength(1);
    const line = errorLines[0];
    expect(JSON.parse(line)).toMatchObject({ level: 50, requestId, err: expect.stringContaining("transactions") });
    for (const personal of ["maria.silva@example.com", "maria.silva%40example.com", "111.444.777-35", "11144477735", "pedido-maria"]) {
      expect(line, `the log line carries ${personal}`).not.toContain(personal);
    }
    expect(lines.join("\n")).not.toMatch(/maria|11144477735|111\.444\.777-35/);
  });
});
