/**
 * The session version a dashboard session must carry (users.session_version): sign-out and a secret
 * key rotation move it on for the user (sign-out) or every user of the account (rotation). The process
 * test security-abuse-process.test.ts shows a copied cookie stop working after sign-out.
 */
import { describe, expect, it } from "vitest";
import { randomCpf } from "../helpers/accounts";
import { createAccount, rotateSecretKey } from "@/lib/services/accounts/accounts";
import { endUserSessions, findDashboardUser, verifyDashboardLogin } from "@/lib/services/accounts/dashboard-users";

describe("session version", () => {
  it("starts at 1, is what sign-in carries, and moves on at sign-out and at a key rotation", async () => {
    const created = await createAccount({ name: "Loja Sessao", document: randomCpf(), email: "sessao@example.com", password: "senha-forte-123" });
    const user = await verifyDashboardLogin("sessao@example.com", "senha-forte-123");
    expect(user?.sessionVersion).toBe(1);
    await endUserSessions(user!.id);
    expect((await findDashboardUser(user!.id))?.user.sessionVersion).toBe(2);
    await rotateSecretKey(created.companyId);
    expect((await findDashboardUser(user!.id))?.user.sessionVersion).toBe(3);
    expect((await verifyDashboardLogin("sessao@example.com", "senha-forte-123"))?.sessionVersion).toBe(3);
  });

  it("a rotation on one account leaves the sessions of another alone", async () => {
    const a = await createAccount({ name: "Loja A", document: randomCpf(), email: "sessao-a@example.com", password: "senha-forte-123" });
    await createAccount({ name: "Loja B", document: randomCpf(), email: "sessao-b@example.com", password: "senha-forte-123" });
    await rotateSecretKey(a.companyId);
    expect((await verifyDashboardLogin("sessao-b@example.com", "senha-forte-123"))?.sessionVersion).toBe(1);
    expect((await verifyDashboardLogin("sessao-a@example.com", "senha-forte-123"))?.sessionVersion).toBe(2);
  });
});
