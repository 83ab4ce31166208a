/**
 * `Authorization: Bearer sk_...` authenticates as the same key in HTTP Basic does: the same lookup,
 * the same answers, the same per-address throttle on failures, on /api/v1 and /v1. A Bearer public
 * key is a public key alone; two secret keys in Basic get a message that says so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { basic, call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixBody } from "../helpers/flows";
import { PEER_HEADER } from "@/lib/http/client-address";
import { PUBLIC_LIMITS } from "@/lib/http/public-limits";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Bearer A");
  b = await createTestAccount("Loja Bearer B");
});

function expect401(res: { status: number; body: any; headers: Headers }, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toMatchObject({ success: false, status: 401, code: "unauthorized" });
  expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
  if (message) expect(res.body.message).toBe(message);
}

describe("Bearer with the secret key", () => {
  it.each(["Bearer", "bearer", "BEARER", "BeArEr"])("%s sk_...: 200 on /api/v1 and /v1, the key's own account", async (scheme) => {
    const api = await call("GET", "/api/v1/company", { headers: { authorization: `${scheme} ${a.secretKey}` } });
    expect(api.status, api.text).toBe(200);
    expect(api.body.data.id).toBe(a.companyId);
    const v1 = await call("GET", "/v1/company", { headers: { authorization: `${scheme} ${b.secretKey}` } });
    expect(v1.status, v1.text).toBe(200);
    expect(v1.body.id).toBe(b.companyId);
  });

  it("creates a charge on /api/v1 and on /v1 (whose body rewrite needs the key to be read)", async () => {
    const api = await call("POST", "/api/v1/transactions", { headers: { authorization: `Bearer ${a.secretKey}` }, body: pixBody() });
    expect(api.status, api.text).toBe(201);
    // /v1 rewrites a family body (amount as "1000") only for a request with a secret key.
    const v1 = await call("POST", "/v1/transactions", { headers: { authorization: `Bearer ${a.secretKey}` }, body: pixBody({ amount: "1000", items: [{ title: "Curso", unitPrice: "1000", quantity: 1 }] }) });
    expect(v1.status, v1.text).toBe(201);
    expect(v1.body.amount).toBe(1000);
  });

  it("a wrong, malformed or revoked-looking secret key is the Basic form's 401", async () => {
    expect401(await call("GET", "/api/v1/company", { headers: { authorization: `Bearer sk_test_${"Z".repeat(32)}` } }), "Invalid API credentials.");
    expect401(await call("GET", "/api/v1/company", { headers: { authorization: "Bearer sk_test_short" } }), "Invalid API credentials.");
  });

  it("a public key alone is refused as in Basic", async () => {
    const pkOnly = "A secret key (sk_...) is required; a public key alone is only for card tokenization.";
    expect401(await call("GET", "/api/v1/company", { headers: { authorization: `Bearer ${a.publicKey}` } }), pkOnly);
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.publicKey, "") }), pkOnly);
  });

  it("a Bearer token that is no key at all, or none, is a 401", async () => {
    expect401(await call("GET", "/api/v1/company", { headers: { authorization: "Bearer abc.def.ghi" } }), "A secret key (sk_...) is required: the credentials hold none.");
    expect401(await call("GET", "/api/v1/company", { headers: { authorization: "Bearer" } }));
  });

  it(`failed Bearer keys count toward the per-address lock (${PUBLIC_LIMITS.invalidKeyPerAddress.points} a minute) as Basic ones do, and the lock holds for Bearer`, async () => {
    const peer = { [PEER_HEADER]: "203.0.113.90" };
    for (let i = 0; i < PUBLIC_LIMITS.invalidKeyPerAddress.points; i++) {
      const authorization = i % 2 ? `Bearer sk_test_guess${i}` : basic(`sk_test_guess${i}`, "");
      expect((await call("GET", "/api/v1/company", { headers: { ...peer, authorization } })).status).toBe(401);
    }
    const locked = await call("GET", "/api/v1/company", { headers: { ...peer, authorization: `Bearer ${a.secretKey}` } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("rate_limited");
    const other = await call("GET", "/api/v1/company", { headers: { [PEER_HEADER]: "203.0.113.91", authorization: `Bearer ${a.secretKey}` } });
    expect(other.status).toBe(200);
  });
});

describe("two secret keys in Basic", () => {
  it("are a 401 that says two secret keys were sent, not that a public key was", async () => {
    const two = "Send one secret key (sk_...): the credentials hold two, and a second secret key is never a password.";
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.secretKey, a.secretKey) }), two);
    expect401(await call("GET", "/api/v1/company", { auth: basic(a.secretKey, b.secretKey) }), two);
    expect401(await call("GET", "/v1/company", { auth: basic(a.secretKey, b.secretKey) }), two);
  });
});
