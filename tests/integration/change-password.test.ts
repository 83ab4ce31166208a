import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createAccount } from "@/lib/services/accounts/accounts";
import { verifyDashboardLogin, type DashboardUser } from "@/lib/services/accounts/dashboard-users";
import { changeDashboardPassword as change, PASSWORD_MIN_LENGTH, type ChangePasswordInput } from "@/lib/services/accounts/change-password";
import { PASSWORD_CHANGE_LIMIT, passwordChangeThrottle } from "@/lib/auth/password-change-throttle";
import { LOGIN_LIMITS } from "@/lib/auth/throttle";
import { authorizeDashboardLogin, THROTTLED_PREFIX } from "@/lib/auth/options";
import { PEER_HEADER } from "@/lib/http/client-address";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { randomCpf } from "@/tests/helpers/accounts";
import { DEMO, ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";

const PASSWORD = "senha-forte-123";
let n = 0;

/** A merchant with a dashboard login, as the session sees its user. */
async function merchant(): Promise<DashboardUser> {
  n += 1;
  const email = `troca${n}.${Date.now()}@example.com`;
  await createAccount({ name: `Loja Senha ${n}`, document: randomCpf(), email, password: PASSWORD });
  const user = await verifyDashboardLogin(email, PASSWORD);
  if (!user) throw new Error("the new merchant cannot sign in");
  return user;
}

/** As the settings form calls it: the session's user, the throttle of that user from that address. */
const changeDashboardPassword = (ctx: { user: DashboardUser }, input: ChangePasswordInput, ip: string, publicKey = "pk_test_NotTheDemoMerchant0000000") =>
  change({ ...ctx, account: { publicKey } }, input, passwordChangeThrottle(ctx.user, ip));

const hashOf = async (id: number) => (await getDb().select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0].h;

describe("changing the dashboard password", () => {
  let user: DashboardUser;
  beforeAll(async () => {
    user = await merchant();
  });

  it("refuses a wrong current password with a clear message, and changes nothing", async () => {
    const before = await hashOf(user.id);
    const r = await changeDashboardPassword({ user }, { currentPassword: "nao-e-essa", newPassword: "nova-senha-456", confirmation: "nova-senha-456" }, "10.3.0.1");
    expect(r).toMatchObject({ ok: false, reason: "wrong_current", message: "A senha atual não confere. Nada foi alterado." });
    expect(r.ok === false && r.fieldErrors?.currentPassword).toBe("Senha atual incorreta.");
    expect(await hashOf(user.id)).toBe(before);
    expect(await verifyDashboardLogin(user.email, PASSWORD)).not.toBeNull();
    expect(await verifyDashboardLogin(user.email, "nova-senha-456")).toBeNull();
  });

  it("refuses a new password too short, typed differently twice, or equal to the current one, before looking at the current one", async () => {
    const before = await hashOf(user.id);
    const short = "a".repeat(PASSWORD_MIN_LENGTH - 1);
    const cases = [
      [{ currentPassword: PASSWORD, newPassword: short, confirmation: short }, "newPassword", `A nova senha precisa de pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`],
      [{ currentPassword: PASSWORD, newPassword: "nova-senha-456", confirmation: "nova-senha-457" }, "confirmation", "As senhas não conferem."],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD, confirmation: PASSWORD }, "newPassword", "A nova senha precisa ser diferente da atual."],
      [{ currentPassword: "", newPassword: "nova-senha-456", confirmation: "nova-senha-456" }, "currentPassword", "Informe a senha atual."],
      [{ currentPassword: PASSWORD, newPassword: "x".repeat(201), confirmation: "x".repeat(201) }, "newPassword", "Use no máximo 200 caracteres."],
    ] as const;
    for (const [input, field, text] of cases) {
      const r = await changeDashboardPassword({ user }, input, "10.3.0.2");
      expect(r).toMatchObject({ ok: false, reason: "invalid", message: "Revise os campos destacados." });
      expect(r.ok === false && r.fieldErrors?.[field]).toBe(text);
    }
    expect(await hashOf(user.id)).toBe(before);
    // None of these counted as a guess of the current password.
    for (let i = 0; i < 6; i++) await changeDashboardPassword({ user }, cases[0][0], "10.3.0.2");
    expect(await authorizeDashboardLogin({ email: user.email, password: PASSWORD }, { [PEER_HEADER]: "10.3.0.2" })).not.toBeNull();
  });

  it("with the right current password, the new one signs in and the old one no longer does", async () => {
    const other = await merchant();
    const r = await changeDashboardPassword({ user: other }, { currentPassword: PASSWORD, newPassword: "nova-senha-456", confirmation: "nova-senha-456" }, "10.3.0.3");
    expect(r).toEqual({ ok: true });
    expect(await verifyDashboardLogin(other.email, "nova-senha-456")).toMatchObject({ id: other.id });
    expect(await verifyDashboardLogin(other.email, PASSWORD)).toBeNull();
    // Stored as the login's bcrypt hash, never in clear.
    const hash = await hashOf(other.id);
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    expect(hash).not.toContain("nova-senha-456");
    // The other merchant's password is untouched.
    expect(await verifyDashboardLogin(user.email, PASSWORD)).not.toBeNull();
  });

  it(`throttles after ${LOGIN_LIMITS.perAccountAndAddress} wrong current passwords from one address, even the right one, sharing the sign-in's count`, async () => {
    const target = await merchant();
    const ip = "10.4.0.1";
    const tryWith = (currentPassword: string, from = ip) =>
      changeDashboardPassword({ user: target }, { currentPassword, newPassword: "nova-senha-789", confirmation: "nova-senha-789" }, from);
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) expect(await tryWith(`chute-${i}`)).toMatchObject({ reason: "wrong_current" });
    const blocked = await tryWith(PASSWORD);
    expect(blocked).toMatchObject({ ok: false, reason: "throttled" });
    expect(blocked.ok === false && blocked.message).toMatch(/^Muitas tentativas com a senha atual errada\. Por segurança, tente de novo em \d+ minutos?\.$/);
    expect(blocked.ok === false && blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(await verifyDashboardLogin(target.email, PASSWORD)).not.toBeNull();
    expect(await verifyDashboardLogin(target.email, "nova-senha-789")).toBeNull();
    // The guesses were the login's failures too: signing in from that address waits as well.
    await expect(authorizeDashboardLogin({ email: target.email, password: PASSWORD }, { [PEER_HEADER]: ip })).rejects.toThrow(THROTTLED_PREFIX);
  });

  it("holds guesses sent at once to the limit: each is counted before it is checked", async () => {
    const target = await merchant();
    const guess = (i: number) =>
      changeDashboardPassword({ user: target }, { currentPassword: `chute-${i}`, newPassword: "nova-senha-789", confirmation: "nova-senha-789" }, "10.7.0.1");
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => guess(i)));
    expect(answers.filter((a) => !a.ok && a.reason === "wrong_current")).toHaveLength(LOGIN_LIMITS.perAccountAndAddress);
    expect(answers.filter((a) => !a.ok && a.reason === "throttled")).toHaveLength(15 - LOGIN_LIMITS.perAccountAndAddress);
    const right = await changeDashboardPassword({ user: target }, { currentPassword: PASSWORD, newPassword: "nova-senha-789", confirmation: "nova-senha-789" }, "10.7.0.1");
    expect(right).toMatchObject({ reason: "throttled" });
    expect(await verifyDashboardLogin(target.email, PASSWORD)).not.toBeNull();
  });

  it("ends every session of the user: its session version moves on", async () => {
    const target = await merchant();
    const before = target.sessionVersion;
    const r = await changeDashboardPassword({ user: target }, { currentPassword: PASSWORD, newPassword: "nova-senha-789", confirmation: "nova-senha-789" }, "10.8.0.1");
    expect(r).toEqual({ ok: true });
    expect((await verifyDashboardLogin(target.email, "nova-senha-789"))?.sessionVersion).toBe(before + 1);
  });

  it(`throttles a session guessing from many addresses after ${PASSWORD_CHANGE_LIMIT.perUser} wrong current passwords`, async () => {
    const target = await merchant();
    const tryFrom = (currentPassword: string, i: number) =>
      changeDashboardPassword({ user: target }, { currentPassword, newPassword: "nova-senha-789", confirmation: "nova-senha-789" }, `10.5.${i}.1`);
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT.perUser; i++) expect(await tryFrom(`chute-${i}`, i)).toMatchObject({ reason: "wrong_current" });
    expect(await tryFrom("mais-um-chute", 100)).toMatchObject({ reason: "throttled" });
    expect(await tryFrom(PASSWORD, 101)).toMatchObject({ reason: "throttled" });
    expect(await verifyDashboardLogin(target.email, PASSWORD)).not.toBeNull();
  });

  it("refuses to change the demo merchant's password, which the sign-in page publishes", async () => {
    await ensureDemoMerchant();
    const demo = (await verifyDashboardLogin(DEMO.email, DEMO.password))!;
    const before = await hashOf(demo.id);
    const r = await changeDashboardPassword({ user: demo }, { currentPassword: DEMO.password, newPassword: "nova-senha-456", confirmation: "nova-senha-456" }, "10.6.0.1", DEMO.publicKey);
    expect(r).toMatchObject({ ok: false, reason: "demo" });
    expect(r.ok === false && r.message).toMatch(/^A senha da conta de demonstração é pública e não pode ser trocada/);
    expect(await hashOf(demo.id)).toBe(before);
  });
});
