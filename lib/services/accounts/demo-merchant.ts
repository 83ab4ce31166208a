import { and, eq, inArray, isNotNull, isNull, like, not, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { apiKeys, companies, users } from "@/lib/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { getLogger } from "@/lib/logger";
import { createAccount, secretKeyHint } from "./accounts";

/**
 * The demo merchant: fixed, documented keys so the README's curl examples work as pasted. On by
 * default only on the embedded database outside production (DEMO_MERCHANT, lib/env.ts); otherwise
 * created by `npm run db:seed` or DEMO_MERCHANT=true.
 */
export const DEMO = {
  name: "Loja Demo Arara",
  document: "11222333000181",
  email: "demo@arara.dev",
  password: "demo-arara-2026",
  publicKey: "pk_test_AraraDemoPublicKey0000000000",
  secretKey: "sk_test_AraraDemoSecretKey000000000000000000",
  webhookSecret: "whsec_QXJhcmFEZW1vV2ViaG9va1NlY3JldDIwMjY=",
} as const;

/**
 * Put before a disabled demo login's password hash: bcrypt never matches it, and removing it gives the
 * login back as it was. Only the demo's logins ever carry it.
 */
const DISABLED_LOGIN = "disabled:";
/**
 * A disabled demo's public key: the published one behind the same mark, which no public key matches
 * (`pk_` first), so card tokenization with the published key stops too; enabling puts it back.
 */
export const DISABLED_PUBLIC_KEY = `${DISABLED_LOGIN}${DEMO.publicKey}`;

async function demoCompanyId(): Promise<number | null> {
  const rows = await getDb()
    .select({ id: companies.id })
    .from(companies)
    .where(inArray(companies.publicKey, [DEMO.publicKey, DISABLED_PUBLIC_KEY]))
    .limit(1);
  return rows[0]?.id ?? null;
}

/**
 * The demo merchant, ready for the README's examples: created if missing, and if it was disabled
 * (disableDemoMerchant) enabled again: its published secret key authenticates and its logins sign
 * in. The published key is a fixed value, so it is made active again even after a rotation.
 */
export async function ensureDemoMerchant(): Promise<number> {
  const id = await demoCompanyId();
  if (id === null) {
    const created = await createAccount(
      { name: DEMO.name, document: DEMO.document, email: DEMO.email, password: DEMO.password },
      { publicKey: DEMO.publicKey, secretKey: DEMO.secretKey, webhookSecret: DEMO.webhookSecret },
    );
    getLogger().info({ companyId: created.companyId }, "demo merchant created");
    return created.companyId;
  }
  const secretHash = sha256Hex(DEMO.secretKey);
  const changed = await getDb().transaction(async (tx) => {
    const keys = await tx
      .update(apiKeys)
      .set({ revokedAt: null })
      .where(and(eq(apiKeys.companyId, id), eq(apiKeys.secretHash, secretHash), isNotNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    const existing = await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.secretHash, secretHash)).limit(1);
    let inserted = 0;
    if (!existing[0]) {
      await tx.insert(apiKeys).values({ companyId: id, secretHash, hint: secretKeyHint(DEMO.secretKey) });
      inserted = 1;
    }
    const logins = await tx
      .update(users)
      .set({ passwordHash: sql`substr(${users.passwordHash}, ${DISABLED_LOGIN.length + 1})` })
      .where(and(eq(users.companyId, id), like(users.passwordHash, `${DISABLED_LOGIN}%`)))
      .returning({ id: users.id });
    const publicKey = await tx
      .update(companies)
      .set({ publicKey: DEMO.publicKey })
      .where(and(eq(companies.id, id), eq(companies.publicKey, DISABLED_PUBLIC_KEY)))
      .returning({ id: companies.id });
    return keys.length + inserted + logins.length + publicKey.length;
  });
  if (changed) getLogger().info({ companyId: id }, "demo merchant enabled again: its published keys and its dashboard login work");
  return id;
}

/**
 * Disables the demo merchant, if there is one: every active secret key of its account is revoked,
 * its published public key stops tokenizing cards, its dashboard logins stop signing in and their
 * sessions end. Its data stays; ensureDemoMerchant
 * undoes it. Returns whether anything changed (false: no demo, or already disabled).
 */
export async function disableDemoMerchant(now = new Date()): Promise<boolean> {
  const id = await demoCompanyId();
  if (id === null) return false;
  const changed = await getDb().transaction(async (tx) => {
    const keys = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.companyId, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    const logins = await tx
      .update(users)
      .set({ passwordHash: sql`${DISABLED_LOGIN} || ${users.passwordHash}`, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.companyId, id), not(like(users.passwordHash, `${DISABLED_LOGIN}%`))))
      .returning({ id: users.id });
    const publicKey = await tx
      .update(companies)
      .set({ publicKey: DISABLED_PUBLIC_KEY })
      .where(and(eq(companies.id, id), eq(companies.publicKey, DEMO.publicKey)))
      .returning({ id: companies.id });
    return keys.length + logins.length + publicKey.length;
  });
  if (changed) getLogger().warn({ companyId: id }, "demo merchant disabled (DEMO_MERCHANT is off): its secret keys are revoked, its public key disabled and its dashboard logins blocked; DEMO_MERCHANT=true enables it again");
  return changed > 0;
}
