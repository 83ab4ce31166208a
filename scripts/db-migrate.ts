import "./env-file";
import { closeDb, databaseDescription, databaseKind, getDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";

async function main() {
  await migrateDatabase(getDb(), databaseKind());
  console.log(`Migrations applied (${databaseKind()}: ${databaseDescription()}).`);
  await closeDb();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
