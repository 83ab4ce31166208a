import "./env-file";
import { closeDb, databaseKind, getDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { DEMO, ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";

/** Creates the demo merchant (with the README's fixed keys) on any database. */
async function main() {
  await migrateDatabase(getDb(), databaseKind());
  const companyId = await ensureDemoMerchant();
  console.log(JSON.stringify({ companyId, publicKey: DEMO.publicKey, secretKey: DEMO.secretKey, login: DEMO.email }));
  await closeDb();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
