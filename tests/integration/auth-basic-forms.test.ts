/**
 * HTTP Basic as the family's clients send it, on both prefixes:
 * - `Authorization: Basic sk_...` with the key itself, not base64-encoded (published curl examples of
 *   the family), with or without `:password`, works on /api/v1 as it does on /v1;
 * - the part beside the secret key: what docs/api.md (Authentication) says, checked here. Anything
 *   that is not a key is ignored (`x`, empty, absent, a password some client fills in); a `pk_` must be
 *   the account's own; a second secret key is refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { basic, call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixBody } from "../helpers/flows";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Chave Crua");
  b = await createTestAccount("Loja Outra");
});

function expect401(res: { status: number; headers: Headers; body: any }, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toMatchObject({ success: false, status: 401, code: "unauthorized" });
  expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
  if (message) expect(res.body.message).toBe(message);
}

describe("Basic base64(x:sk): the key as the password (the FastSoft white label's clients)", () => {
  for (const prefix of ["/api/v1", "/v1"]) {
    it(`${prefix}: authenticates, and x:pk alone is not a secret key`, async () => {
      const res = await call("GET", `${prefix}/company`, { headers: { authorization: `Basic ${Buffer.from(`x:${a.secretKey}`).toString("base64")}` } });
      expect(res.status, res.text).toBe(200);
      expect((prefix === "/api/v1" ? res.body.data : res.body).id).toBe(a.companyId);
      expect401(await call("GET", `${prefix}/company`, { headers: { authorization: `Basic ${Buffer.from(`x:${a.publicKey}`).toString("base64")}` } }));
    });
  }
});

describe("Authorization: Basic sk_... with the key not base64-encoded", () => {
  const raw: [string, () => string][] = [
    ["Basic sk", () => `Basic ${a.secretKey}`],
    ["Basic sk:", () => `Basic ${a.secretKey}:`],
    ["Basic sk:x", () => `Basic ${a.secretKey}:x`],
    ["Basic sk:pk (own)", () => `Basic ${a.secretKey}:${a.publicKey}`],
    ["lowercase scheme", () => `basic ${a.secretKey}`],
  ];
  for (const prefix of ["/api/v1", "/v1"]) {
    it.each(raw)(`${prefix}: %s authenticates`, async (_name, header) => {
      const res = await call("GET", `${prefix}/company`, { headers: { authorization: header() } });
      expect(res.status, res.text).toBe(200);
      const company = prefix === "/api/v1" ? res.body.data : res.body;
      expect(company.id).toBe(a.companyId);
    });
  }

  it("/api/v1: creates a charge with the raw key (the family's curl example)", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: `Basic ${a.secretKey}:x`, body: pixBody() });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.companyId).toBe(a.companyId);
  });

  it("a raw key that is wrong, or beside another account's pk_, is the usual 401", async () => {
    for (const prefix of ["/api/v1", "/v1"]) {
      expect401(await call("GET", `${prefix}/company`, { auth: "Basic sk_test_notakey" }), "Invalid API credentials.");
      expect401(await call("GET", `${prefix}/company`, { auth: `Basic sk_test_${"Z".repeat(32)}` }), "Invalid API credentials.");
      expect401(await call("GET", `${prefix}/company`, { auth: `Basic ${a.secretKey}:${b.publicKey}` }), "Invalid API credentials.");
    }
  });

  it("the other answers: no header, a public key alone (in Basic or Bearer), garbage", async () => {
    expect401(await call("GET", "/api/v1/company"), "Authentication required: send HTTP Basic (or Bearer) with your secret key (sk_...).");
    const pkOnly = "A secret key (sk_...) is required; a public key alone is only for card tokenization.";
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.publicKey, "") }), pkOnly);
    expect401(await call("GET", "/api/v1/company", { auth: "Basic %%%not-base64%%%" }));
    // Bearer with the secret key authenticates (tests/integration/api-auth-bearer.test.ts); with the public key it does not.
    expect401(await call("GET", "/api/v1/company", { auth: `Bearer ${a.publicKey}` }), pkOnly);
  });
});

describe("the part beside the secret key", () => {
  const accepted: [string, () => string][] = [
    ["sk:hunter2 (a password: ignored)", () => basic(a.secretKey, "hunter2")],
    ["hunter2:sk (a user name: ignored)", () => basic("hunter2", a.secretKey)],
    ["sk:x", () => basic(a.secretKey, "x")],
    ["sk:", () => basic(a.secretKey, "")],
    ["sk alone", () => basic(a.secretKey)],
    ["sk:own pk", () => basic(a.secretKey, a.publicKey)],
    ["own pk:sk", () => basic(a.publicKey, a.secretKey)],
  ];
  it.each(accepted)("%s: 200", async (_name, header) => {
    const res = await call("GET", "/api/v1/company", { auth: header() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(a.companyId);
  });

  it("another account's pk_ beside the secret key, in either order: 401 Invalid API credentials", async () => {
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.secretKey, b.publicKey) }), "Invalid API credentials.");
    expect401(await call("GET", "/api/v1/company", { auth: basic(b.publicKey, a.secretKey) }), "Invalid API credentials.");
  });

  it("two secret keys (another account's, or the same twice): 401", async () => {
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.secretKey, b.secretKey) }));
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.secretKey, a.secretKey) }));
  });
});
