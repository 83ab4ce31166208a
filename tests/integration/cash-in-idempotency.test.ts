import { beforeAll, describe, expect, it } from "vitest";
import { databaseKind } from "@/lib/db/client";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, cardBody } from "../helpers/cash-in";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Idempotente");
});

const create = (body: unknown, key: string) =>
  call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers: { "idempotency-key": key } });
const countByRef = async (externalRef: string) =>
  (await call("GET", `/api/v1/transactions?externalRef=${externalRef}`, { auth: a.secretKey })).body.data.pagination.total;

describe("Idempotency-Key on POST /api/v1/transactions", () => {
  it("the same key and body replays the first response and creates no second transaction", async () => {
    const body = baseBody({ externalRef: "idem-1" });
    const first = await create(body, "key-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await create(body, "key-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await countByRef("idem-1")).toBe(1);
  });

  it("the same body in another key order is the same request", async () => {
    const body = baseBody({ externalRef: "idem-order" });
    const first = await create(body, "key-order");
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await create(reordered, "key-order");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it("the same key with a different body is a 409 and creates nothing", async () => {
    expect((await create(baseBody({ externalRef: "idem-2" }), "key-2")).status).toBe(201);
    const other = await create(baseBody({ externalRef: "idem-2", amount: 1600, items: [{ title: "x", unitPrice: 1600, quantity: 1, tangible: false }] }), "key-2");
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("idempotency_conflict");
    expect(await countByRef("idem-2")).toBe(1);
  });

  it("two concurrent requests with one key: one transaction; the other is a 409 while the first runs, or its replay", async () => {
    const body = baseBody({ externalRef: "idem-race" });
    const results = await Promise.all([create(body, "key-race"), create(body, "key-race")]);
    const [first, second] = [...results].sort((x, y) => Number(x.headers.has("idempotent-replayed")) - Number(y.headers.has("idempotent-replayed")) || x.status - y.status);
    expect(first.status).toBe(201);
    if (databaseKind() === "postgres") {
      // Two connections: the second finds the key's lock taken and answers at once.
      if (second.status === 409) expect(second.body.message).toMatch(/still being processed/);
      else expect(second.headers.get("idempotent-replayed")).toBe("true");
    } else {
      // PGlite runs one database transaction at a time: the second starts after the first committed.
      expect(second.status).toBe(201);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(second.text).toBe(first.text);
    }
    expect(await countByRef("idem-race")).toBe(1);
  });

  it("a replayed card charge returns the first decision and does not try the spent token again", async () => {
    const body = await cardBody(a.publicKey, undefined, { externalRef: "idem-card" });
    const first = await create(body, "key-card");
    const second = await create(body, "key-card");
    expect(first.body.data.status).toBe("paid");
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await countByRef("idem-card")).toBe(1);
  });

  it("a 400 is remembered too: the same key and body get the same answer", async () => {
    const bad = baseBody({ amount: 1 });
    const first = await create(bad, "key-bad");
    const second = await create(bad, "key-bad");
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("without a key every request creates a transaction", async () => {
    const body = baseBody({ externalRef: "idem-none" });
    await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
    await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
    expect(await countByRef("idem-none")).toBe(2);
  });
});
