import "./env-file";
import { closeDb, databaseDescription, ensureDatabase } from "@/lib/db/client";
import { DEMO, ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";

/**
 * Creates the demo merchant (with the README's fixed keys) on any database: migrated, and its
 * key-encryption secret checked (lib/db/key-check.ts), as the app opens it.
 */
async function main() {
  await ensureDatabase();
  const companyId = await ensureDemoMerchant();
  console.error(`Demo merchant ${companyId} ready in ${databaseDescription()}.`);
  console.log(JSON.stringify({ companyId, publicKey: DEMO.publicKey, secretKey: DEMO.secretKey, login: DEMO.email }));
  await closeDb();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
