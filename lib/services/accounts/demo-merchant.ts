import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { createAccount } from "./accounts";

/**
 * The demo merchant of the embedded default: fixed, documented keys so the README's curl examples
 * work as pasted. Never created on PostgreSQL unless `npm run db:seed` asks for it.
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

export async function ensureDemoMerchant(): Promise<number> {
  const db = getDb();
  const existing = await db.select({ id: companies.id }).from(companies).where(eq(companies.publicKey, DEMO.publicKey)).limit(1);
  if (existing[0]) return existing[0].id;
  const created = await createAccount(
    { name: DEMO.name, document: DEMO.document, email: DEMO.email, password: DEMO.password },
    { publicKey: DEMO.publicKey, secretKey: DEMO.secretKey, webhookSecret: DEMO.webhookSecret },
  );
  getLogger().info({ companyId: created.companyId }, "demo merchant created");
  return created.companyId;
}
