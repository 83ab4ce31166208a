import { describe, expect, it, beforeAll } from "vitest";
import { createAccount } from "@/lib/services/accounts/accounts";
import { authorizeDashboardLogin, THROTTLED_PREFIX } from "@/lib/auth/options";
import { LOGIN_LIMITS, clientIp } from "@/lib/auth/throttle";
import { findDashboardUser } from "@/lib/services/accounts/dashboard-users";
import { randomCpf } from "@/tests/helpers/accounts";

const PASSWORD = "senha-forte-123";
const headers = (ip: string) => ({ "x-forwarded-for": ip });

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

  it(`blocks an e-mail after ${LOGIN_LIMITS.perEmail} failures, even with the right password, from any IP`, async () => {
    await merchant("alvo@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perEmail; i++) {
      expect(await authorizeDashboardLogin({ email: "alvo@example.com", password: `chute-${i}` }, headers(`10.1.0.${i}`))).toBeNull();
    }
    await expect(authorizeDashboardLogin({ email: "ALVO@example.com", password: PASSWORD }, headers("10.9.9.9"))).rejects.toThrow(
      new RegExp(`^${THROTTLED_PREFIX}\\d+$`),
    );
    // Other accounts are not affected.
    expect(await authorizeDashboardLogin({ email: "dona@example.com", password: PASSWORD }, headers("10.9.9.9"))).not.toBeNull();
  });

  it("clears an e-mail's failures on a successful sign-in", async () => {
    await merchant("esquecida@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perEmail - 1; i++) {
      await authorizeDashboardLogin({ email: "esquecida@example.com", password: "nao-e-essa" }, headers("10.2.0.1"));
    }
    expect(await authorizeDashboardLogin({ email: "esquecida@example.com", password: PASSWORD }, headers("10.2.0.1"))).not.toBeNull();
    for (let i = 0; i < LOGIN_LIMITS.perEmail - 1; i++) {
      await authorizeDashboardLogin({ email: "esquecida@example.com", password: "nao-e-essa" }, headers("10.2.0.1"));
    }
    expect(await authorizeDashboardLogin({ email: "esquecida@example.com", password: PASSWORD }, headers("10.2.0.1"))).not.toBeNull();
  });

  it(`blocks an IP after ${LOGIN_LIMITS.perIp} failures across e-mails`, async () => {
    await merchant("vitima@example.com");
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
      await authorizeDashboardLogin({ email: `varredura${i}@example.com`, password: "x-123456" }, headers("203.0.113.7"));
    }
    await expect(authorizeDashboardLogin({ email: "vitima@example.com", password: PASSWORD }, headers("203.0.113.7"))).rejects.toThrow(
      THROTTLED_PREFIX,
    );
    expect(await authorizeDashboardLogin({ email: "vitima@example.com", password: PASSWORD }, headers("203.0.113.8"))).not.toBeNull();
  });

  it("takes the client IP from the last X-Forwarded-For entry (the one the nearest proxy added)", () => {
    expect(clientIp({ "x-forwarded-for": "1.2.3.4, 198.51.100.9" })).toBe("198.51.100.9");
    expect(clientIp({ "x-forwarded-for": "::1" })).toBe("::1");
    expect(clientIp({})).toBe("unknown");
  });
});
