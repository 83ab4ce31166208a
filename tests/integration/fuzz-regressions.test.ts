/**
 * Counterexamples the fuzzers found, kept as plain tests so they stay fixed whatever seed runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { expectWellFormed } from "../helpers/fuzz";
import { pixBody, rowCounts } from "../helpers/flows";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Regressions");
});

describe("text PostgreSQL cannot store is a 400 naming the field, not a 500", () => {
  it("a NUL (\\u0000) in customer.name", async () => {
    const body = pixBody();
    body.customer = { ...body.customer, name: "a\u0000b" };
    const before = await rowCounts();
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
    expectWellFormed(res, "nul in name");
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "customer.name", message: expect.stringMatching(/NUL/) }]);
    expect(await rowCounts()).toEqual(before);
  });

  it("a NUL in a payment link's item title, and in a key", async () => {
    const res = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { items: [{ title: "x\u0000", unitPrice: 100 }] } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("items.0.title");
    const key = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, rawBody: '{"amount":100,"metadata":{"k\\u0000":1}}' });
    expect(key.status).toBe(400);
    expect(key.body.errors[0].field).toBe("metadata.k\\u0000");
  });

  it("half a surrogate pair (\\ud83d) in items[].title and customer.name", async () => {
    for (const mutate of [
      (b: any) => (b.items[0].title = "\ud83d"),
      (b: any) => (b.customer.name = "x\udc00"),
    ]) {
      const body: any = pixBody();
      mutate(body);
      const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
      expectWellFormed(res, "lone surrogate");
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/surrogate/);
    }
  });

  it("a whole surrogate pair (an emoji) is ordinary text and is stored", async () => {
    const body: any = pixBody();
    body.customer.name = "Maria 💸 Silva";
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
    expect(res.status).toBe(201);
    expect(res.body.data.customer.name).toBe("Maria 💸 Silva");
  });

  it("a NUL in list filters (query strings)", async () => {
    for (const url of [
      "/api/v1/transactions?externalRef=%00",
      "/api/v1/transactions?email=a%00b",
      "/api/v1/transactions?q=%00",
      "/api/v1/transactions?documentNumber=1%00",
      "/api/v1/cashOut?externalRef=%00",
      "/api/v1/checkouts?externalRef=%00",
      "/api/v1/balance/statement?cursor=%00",
    ]) {
      const res = await call("GET", url, { auth: a.secretKey });
      expectWellFormed(res, url);
    }
  });
});
