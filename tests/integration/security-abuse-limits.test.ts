/**
 * Abuse limits, in process (the peer address is the header the HTTP server hook writes; the process
 * test security-abuse-process.test.ts checks the hook itself, and two instances sharing the counts):
 *
 * - X-Forwarded-For is not believed without TRUSTED_PROXIES: rotating it does not escape the
 *   per-address sign-up and sign-in limits;
 * - the sign-in lock is on account and address: a stranger's wrong passwords never lock the owner out;
 * - routes without a secret key are limited: card tokenization (per public key and per address), the
 *   checkout's pay and simulate (per address), and invalid credentials (per address), with 429,
 *   Retry-After and the one error body.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, type CallResult } from "../helpers/app";
import { createTestAccount, randomCpf } from "../helpers/accounts";
import { CARD } from "../helpers/cash-in";
import { authorizeDashboardLogin, THROTTLED_PREFIX } from "@/lib/auth/options";
import { LOGIN_LIMITS, SIGNUP_LIMIT, clientIp, takeSignupSlot } from "@/lib/auth/throttle";
import { PEER_HEADER } from "@/lib/http/client-address";
import { PUBLIC_LIMITS } from "@/lib/http/public-limits";
import { createAccount, type CreatedAccount } from "@/lib/services/accounts/accounts";

const PASSWORD = "senha-forte-123";
let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Abuso A");
  b = await createTestAccount("Loja Abuso B");
});

function expectRateLimited(res: CallResult) {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toMatchObject({ success: false, status: 429, code: "rate_limited", message: expect.any(String), requestId: expect.any(String) });
  const wait = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
}

describe("X-Forwarded-For from an untrusted peer is ignored", () => {
  it("the client address is the peer whatever X-Forwarded-For says", () => {
    for (const xff of ["1.1.1.1", "203.0.113.1, 198.51.100.2", "garbage"]) {
      expect(clientIp({ [PEER_HEADER]: "192.0.2.77", "x-forwarded-for": xff })).toBe("192.0.2.77");
    }
  });

  it(`rotating X-Forwarded-For does not give extra sign-ups past ${SIGNUP_LIMIT.perIp} per address`, async () => {
    let granted = 0;
    for (let i = 0; i < SIGNUP_LIMIT.perIp * 2; i++) {
      const ip = clientIp(new Headers({ [PEER_HEADER]: "192.0.2.10", "x-forwarded-for": `10.${i}.0.1` }));
      if ((await takeSignupSlot(ip)) === null) granted++;
    }
    expect(granted).toBe(SIGNUP_LIMIT.perIp);
  });

  it(`rotating X-Forwarded-For does not give extra sign-in attempts past ${LOGIN_LIMITS.perAddress} per address`, async () => {
    let refusedByThrottle = 0;
    for (let i = 0; i < LOGIN_LIMITS.perAddress + 5; i++) {
      const headers = { [PEER_HEADER]: "192.0.2.11", "x-forwarded-for": `172.16.${i}.9` };
      try {
        await authorizeDashboardLogin({ email: `sweep${i}@example.com`, password: "wrong-1234" }, headers);
      } catch (e) {
        expect(String(e)).toContain(THROTTLED_PREFIX);
        refusedByThrottle++;
      }
    }
    expect(refusedByThrottle).toBe(5);
  });
});

describe("the sign-in lock is on account and address", () => {
  it("a stranger's wrong passwords lock only the stranger's address out, never the owner", async () => {
    await createAccount({ name: "Loja Dona", document: randomCpf(), email: "owner@example.com", password: PASSWORD });
    const stranger = { [PEER_HEADER]: "198.51.100.66" };
    const owner = { [PEER_HEADER]: "192.0.2.200" };
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
        await authorizeDashboardLogin({ email: "owner@example.com", password: `guess-${round}-${i}` }, stranger).catch(() => null);
      }
      await expect(authorizeDashboardLogin({ email: "owner@example.com", password: PASSWORD }, stranger)).rejects.toThrow(THROTTLED_PREFIX);
      expect(await authorizeDashboardLogin({ email: "owner@example.com", password: PASSWORD }, owner)).toMatchObject({ email: "owner@example.com" });
    }
  });
});

describe("card tokenization is rate limited", () => {
  const tokenize = (publicKey: string, peer: string) =>
    call("POST", `/api/v1/card-token?publicKey=${publicKey}`, { body: CARD, headers: { [PEER_HEADER]: peer } });

  it(`per address: ${PUBLIC_LIMITS.cardTokenPerAddress.points} a minute, then 429 with Retry-After (another address is unaffected)`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_LIMITS.cardTokenPerAddress.points; i++) statuses.push((await tokenize(a.publicKey, "203.0.113.50")).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await tokenize(a.publicKey, "203.0.113.50");
    expectRateLimited(limited);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect((await tokenize(a.publicKey, "203.0.113.51")).status).toBe(200);
  });

  it(`per public key: ${PUBLIC_LIMITS.cardTokenPerPublicKey.points} a minute across addresses, then 429 (another key is unaffected)`, async () => {
    let limited: CallResult | undefined;
    for (let i = 0; i <= PUBLIC_LIMITS.cardTokenPerPublicKey.points && !limited; i++) {
      // A different address each time, as a distributed card-testing run would use; requests without
      // a body are refused after counting, which keeps this quick.
      const res = await call("POST", `/api/v1/card-token?publicKey=${b.publicKey}`, { rawBody: "{}", headers: { [PEER_HEADER]: `10.7.${i >> 8}.${i & 255}` } });
      if (res.status === 429) limited = res;
    }
    expect(limited, "no 429 within the limit + 1").toBeDefined();
    expectRateLimited(limited!);
    expect((await tokenize(a.publicKey, "203.0.113.52")).status).toBe(200);
  });
});

describe("the checkout's pay and simulate routes are rate limited per address", () => {
  it(`${PUBLIC_LIMITS.checkoutPerAddress.points} a minute, then 429 with Retry-After`, async () => {
    const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000 } });
    expect(link.status, link.text).toBe(201);
    const secureId = link.body.data.secureId;
    const headers = { "content-type": "application/json", [PEER_HEADER]: "203.0.113.60" };
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_LIMITS.checkoutPerAddress.points; i++) {
      const path = i % 2 ? `/checkout/${secureId}/simulate` : `/checkout/${secureId}/pay`;
      statuses.push((await call("POST", path, { rawBody: '{"method":"nope"}', headers })).status);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expectRateLimited(await call("POST", `/checkout/${secureId}/pay`, { rawBody: "{}", headers }));
    expectRateLimited(await call("POST", `/checkout/${secureId}/simulate`, { rawBody: "{}", headers }));
    const other = await call("POST", `/checkout/${secureId}/pay`, { rawBody: "{}", headers: { ...headers, [PEER_HEADER]: "203.0.113.61" } });
    expect(other.status).not.toBe(429);
  });
});

describe("requests with invalid credentials are rate limited per address", () => {
  it(`${PUBLIC_LIMITS.invalidKeyPerAddress.points} invalid keys a minute, then every request from that address is a 429, a valid key too`, async () => {
    const peer = { [PEER_HEADER]: "203.0.113.70" };
    for (let i = 0; i < PUBLIC_LIMITS.invalidKeyPerAddress.points; i++) {
      const res = await call("GET", "/api/v1/company", { auth: `sk_test_guess${i}`, headers: peer });
      expect(res.status).toBe(401);
    }
    expectRateLimited(await call("GET", "/api/v1/company", { auth: "sk_test_guess-more", headers: peer }));
    // A right guess now looks like a wrong one: guessing cannot go on.
    expectRateLimited(await call("GET", "/api/v1/company", { auth: a.secretKey, headers: peer }));
    expect((await call("GET", "/api/v1/company", { auth: a.secretKey, headers: { [PEER_HEADER]: "203.0.113.71" } })).status).toBe(200);
  });

  it("valid keys do not count toward it", async () => {
    const peer = { [PEER_HEADER]: "203.0.113.72" };
    for (let i = 0; i < PUBLIC_LIMITS.invalidKeyPerAddress.points + 5; i++) {
      expect((await call("GET", "/api/v1/company", { auth: a.secretKey, headers: peer })).status).toBe(200);
    }
  });
});
