import "./env-file";
import { closeDb, databaseDescription, getDb } from "@/lib/db/client";
import { checkLedger, ledgerCheckSummary } from "@/lib/ledger/check";

/**
 * `npm run ledger:check`: verifies the ledger of the configured database (DATABASE_URL, or the
 * embedded one in PGLITE_DIR). Read-only. Exit 0 with a one-line summary, or 1 listing violations.
 * The embedded database takes no lock on its directory: stop the app (or worker) using PGLITE_DIR
 * before running this against it. PostgreSQL can be checked while the app runs.
 */
async function main() {
  const result = await checkLedger(getDb());
  console.error(`Checked the ledger of ${databaseDescription()}.`);
  if (result.ok) {
    console.log(ledgerCheckSummary(result));
  } else {
    for (const v of result.violations) console.error(`- ${v}`);
    console.error(ledgerCheckSummary(result));
  }
  await closeDb();
  process.exit(result.ok ? 0 : 1);
}

main().catch(async (e) => {
  console.error(`ledger check could not run: ${e instanceof Error ? e.message : String(e)}`);
  await closeDb().catch(() => {});
  process.exit(1);
});
