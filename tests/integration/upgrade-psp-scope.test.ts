/**
 * An upgrade from the version before migration 0029 (the token's scope): an API Pix configuration
 * saved then asked its token with no scope, and keeps doing so after the upgrade (scope "", "Nenhum"),
 * while one saved afterwards gets the API Pix scopes (null). The migrations run on a PGlite of their
 * own, first up to 0028, then the rest, as `npm run db:migrate` runs them on an upgrade.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

const ROOT = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "arara-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as a release that stopped at `lastTag` shipped it. */
function folderUpTo(lastTag: string): string {
  const out = path.join(dir, lastTag);
  cpSync(path.join(ROOT, "drizzle"), out, { recursive: true });
  const journalPath = path.join(out, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(end).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return out;
}

describe("upgrading past migration 0029", () => {
  it("keeps an existing API Pix configuration (in use or switched back to the sandbox) asking no scope; a new one asks the defaults", async () => {
    const client = new PGlite();
    const db = drizzle(client);
    try {
      await migrate(db, { migrationsFolder: folderUpTo("0028_instance_facts") });
      // The row as the previous version saved it (foreign keys off: only this table matters here).
      await client.exec(`set session_replication_role = replica;
        insert into account_psp_configs (company_id, processor, base_url, token_url, client_id, webhook_token)
        values (1, 'api-pix', 'https://psp.example/api/v2', 'https://psp.example/oauth/token', 'id-1', 'tok-1'),
               (2, 'sandbox', null, null, null, 'tok-2'),
               (4, 'sandbox', 'https://psp.example/api/v2', 'https://psp.example/oauth/token', 'id-4', 'tok-4');`);
      await migrate(db, { migrationsFolder: path.join(ROOT, "drizzle") });
      const before = await client.query<{ company_id: string; scope: string | null; client_auth: string }>(
        "select company_id::text, scope, client_auth from account_psp_configs order by company_id",
      );
      // Switched back to the sandbox with its credentials kept (its earlier charges still followed): as before too.
      expect(before.rows).toEqual([
        { company_id: "1", scope: "", client_auth: "basic" },
        { company_id: "2", scope: null, client_auth: "basic" },
        { company_id: "4", scope: "", client_auth: "basic" },
      ]);
      await client.exec(`insert into account_psp_configs (company_id, processor, client_id, webhook_token) values (3, 'api-pix', 'id-3', 'tok-3');`);
      const after = await client.query<{ scope: string | null }>("select scope from account_psp_configs where company_id = 3");
      expect(after.rows).toEqual([{ scope: null }]);
    } finally {
      await client.close();
    }
  });
});
