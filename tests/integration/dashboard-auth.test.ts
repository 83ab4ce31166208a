import { describe, expect, it, beforeAll } from "vitest";
import { createAccount } from "@/lib/services/accounts/accounts";
import { authorizeDashboardLogin, THROTTLED_PREFIX } from "@/lib/auth/options";
import { LOGIN_LIMITS, clientIp } from "@/lib/auth/throttle";
import { PEER_HEADER } from "@/lib/http/client-address";
import { findDashboardUser } from "@/lib/services/accounts/dashboard-users";
import { randomCpf } from "@/tests/helpers/accounts";

const PASSWORD = "senha-forte-123";
// The peer address as the HTTP server hook writes it (lib/http/request-guard.ts).
const headers = (ip: string) => ({ [PEER_HEADER]: ip });

async function merchant(email: string) {
  return createAccount({ name: "Loja Login", document: randomCpf(), email, password: PASSWORD });
}

describe("dashboard sign-in (next-auth credentials authorize)", () => {
  let companyId: number;
  beforeAll(async () => {
    companyId = (await merchant("Dona@Example.com")).companyId;
  });

  it("signs in with the e-mail in any case and the right password, carrying the account id", async () => {
    const user = await authorizeDashboardLogin({ email: " dona@EXAMPLE.com ", password: PASSWORD }, headers("10.0.0.1"));
    expect(user).toMatchObject({ email: "dona@example.com", companyId });
    const found = await findDashboardUser(Number(user!.id));
    expect(found?.account.id).toBe(companyId);
  });

  it("refuses a wrong password and an unknown e-mail alike (null, no hint which)", async () => {
    expect(await authorizeDashboardLogin({ email: "dona@example.com", password: "errada-123" }, headers("10.0.0.2"))).toBeNull();
    expect(await authorizeDashboardLogin({ email: "ninguem@example.com", password: PASSWORD }, headers("10.0.0.2"))).toBeNull();
    expect(await authorizeDashboardLogin({ email: "", password: "" }, headers("10.0.0.2"))).toBeNull();
  });

  it(`blocks an e-mail from one address after ${LOGIN_LIMITS.perAccountAndAddress} failures there, even with the right password`, async () => {
    await merchant("alvo@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
      expect(await authorizeDashboardLogin({ email: "alvo@example.com", password: `chute-${i}` }, headers("10.1.0.1"))).toBeNull();
    }
    await expect(authorizeDashboardLogin({ email: "ALVO@example.com", password: PASSWORD }, headers("10.1.0.1"))).rejects.toThrow(
      new RegExp(`^${THROTTLED_PREFIX}\\d+$`),
    );
    // Other accounts from that address are not affected, nor is the owner from another address.
    expect(await authorizeDashboardLogin({ email: "dona@example.com", password: PASSWORD }, headers("10.1.0.1"))).not.toBeNull();
    expect(await authorizeDashboardLogin({ email: "alvo@example.com", password: PASSWORD }, headers("10.9.9.9"))).not.toBeNull();
  });

  it("clears an e-mail's failures on a successful sign-in", async () => {
    await merchant("esquecida@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress - 1; i++) {
      await authorizeDashboardLogin({ email: "esquecida@example.com", password: "nao-e-essa" }, headers("10.2.0.1"));
    }
    expect(await authorizeDashboardLogin({ email: "esquecida@example.com", password: PASSWORD }, headers("10.2.0.1"))).not.toBeNull();
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress - 1; i++) {
      await authorizeDashboardLogin({ email: "esquecida@example.com", password: "nao-e-essa" }, headers("10.2.0.1"));
    }
    expect(await authorizeDashboardLogin({ email: "esquecida@example.com", password: PASSWORD }, headers("10.2.0.1"))).not.toBeNull();
  });

  it(`blocks an address after ${LOGIN_LIMITS.perAddress} failures across e-mails`, async () => {
    await merchant("vitima@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      await authorizeDashboardLogin({ email: `varredura${i}@example.com`, password: "x-123456" }, headers("203.0.113.7"));
    }
    await expect(authorizeDashboardLogin({ email: "vitima@example.com", password: PASSWORD }, headers("203.0.113.7"))).rejects.toThrow(
      THROTTLED_PREFIX,
    );
    expect(await authorizeDashboardLogin({ email: "vitima@example.com", password: PASSWORD }, headers("203.0.113.8"))).not.toBeNull();
  });

  it(`holds a burst of guesses sent at once to ${LOGIN_LIMITS.perAccountAndAddress}: each is counted before its password is checked`, async () => {
    await merchant("rajada@example.com");
    const answers = await Promise.allSettled(
      Array.from({ length: 15 }, (_, i) => authorizeDashboardLogin({ email: "rajada@example.com", password: `chute-${i}` }, headers("10.3.0.1"))),
    );
    const checked = answers.filter((a) => a.status === "fulfilled");
    expect(checked).toHaveLength(LOGIN_LIMITS.perAccountAndAddress);
    for (const a of answers.filter((x) => x.status === "rejected")) expect(String((a as PromiseRejectedResult).reason)).toContain(THROTTLED_PREFIX);
    await expect(authorizeDashboardLogin({ email: "rajada@example.com", password: PASSWORD }, headers("10.3.0.1"))).rejects.toThrow(THROTTLED_PREFIX);
  });

  it("successful sign-ins do not use up an address's budget (an office behind one address signs in all day)", async () => {
    await merchant("escritorio@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perAddress + 5; i++) {
      expect(await authorizeDashboardLogin({ email: "escritorio@example.com", password: PASSWORD }, headers("203.0.113.20"))).not.toBeNull();
    }
  });

  it("takes the client address from the connection's peer, not from X-Forwarded-For (no trusted proxies configured)", () => {
    expect(clientIp({ [PEER_HEADER]: "198.51.100.9", "x-forwarded-for": "1.2.3.4" })).toBe("198.51.100.9");
    expect(clientIp({ [PEER_HEADER]: "::ffff:10.0.0.3" })).toBe("10.0.0.3");
    expect(clientIp({ "x-forwarded-for": "1.2.3.4" })).toBe("unknown");
  });
});
