/**
 * The demo merchant turned off and on again (lib/services/accounts/demo-merchant.ts): its keys and
 * password are published, so DEMO_MERCHANT off (the default in production) disables an existing one
 * at start: every secret key revoked, every dashboard login blocked and signed out. Turning it on
 * again gives the published key and the login back; a key the demo rotated to stays revoked.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { companies, users } from "@/lib/db/schema";
import { isDemoAccount } from "@/lib/services/accounts/change-password";
import { findAccountByPublicKey, findAccountBySecretKey, rotateSecretKey } from "@/lib/services/accounts/accounts";
import { verifyDashboardLogin } from "@/lib/services/accounts/dashboard-users";
import { DEMO, disableDemoMerchant, ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";
import { createTestAccount } from "../helpers/accounts";

const sessionVersions = async (companyId: number) =>
  (await getDb().select({ v: users.sessionVersion }).from(users).where(eq(users.companyId, companyId))).map((r) => r.v);

describe("demo merchant on and off", () => {
  it("does nothing when there is no demo merchant", async () => {
    expect(await disableDemoMerchant()).toBe(false);
  });

  it("off: its secret keys stop authenticating, its login stops signing in and its sessions end; on again: both work, and nothing else was touched", async () => {
    const other = await createTestAccount("Loja Vizinha");
    const id = await ensureDemoMerchant();
    expect((await findAccountBySecretKey(DEMO.secretKey))?.id).toBe(id);
    expect(await verifyDashboardLogin(DEMO.email, DEMO.password)).toMatchObject({ companyId: id });
    const before = await sessionVersions(id);

    expect((await findAccountByPublicKey(DEMO.publicKey))?.id).toBe(id);
    expect(await disableDemoMerchant()).toBe(true);
    expect(await findAccountBySecretKey(DEMO.secretKey)).toBeNull();
    // The published public key no longer tokenizes cards for it; it is still known as the demo.
    expect(await findAccountByPublicKey(DEMO.publicKey)).toBeNull();
    const [disabled] = await getDb().select().from(companies).where(eq(companies.id, id));
    expect(isDemoAccount(disabled)).toBe(true);
    expect(await verifyDashboardLogin(DEMO.email, DEMO.password)).toBeNull();
    expect(await sessionVersions(id)).toEqual(before.map((v) => v + 1));
    // A second start with the demo off changes nothing more (and says so).
    expect(await disableDemoMerchant()).toBe(false);
    expect(await sessionVersions(id)).toEqual(before.map((v) => v + 1));
    // Another merchant is not touched.
    expect((await findAccountBySecretKey(other.secretKey))?.id).toBe(other.companyId);

    expect(await ensureDemoMerchant()).toBe(id);
    expect((await findAccountBySecretKey(DEMO.secretKey))?.id).toBe(id);
    expect((await findAccountByPublicKey(DEMO.publicKey))?.id).toBe(id);
    expect(await verifyDashboardLogin(DEMO.email, DEMO.password)).toMatchObject({ companyId: id });
    // Once on, starting again keeps it as it is.
    expect(await ensureDemoMerchant()).toBe(id);
    expect(await verifyDashboardLogin(DEMO.email, DEMO.password)).toMatchObject({ companyId: id });
  });

  it("on again restores the published key only: a key the demo account made for itself stays revoked", async () => {
    const id = await ensureDemoMerchant();
    const rotated = await rotateSecretKey(id);
    expect(await findAccountBySecretKey(DEMO.secretKey)).toBeNull();
    expect((await findAccountBySecretKey(rotated.secretKey))?.id).toBe(id);

    await disableDemoMerchant();
    expect(await findAccountBySecretKey(rotated.secretKey)).toBeNull();
    await ensureDemoMerchant();
    expect((await findAccountBySecretKey(DEMO.secretKey))?.id).toBe(id);
    expect(await findAccountBySecretKey(rotated.secretKey)).toBeNull();
  });
});
