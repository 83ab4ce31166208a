/**
 * The database keeps a check of the key-encryption secret its secrets were encrypted with
 * (lib/db/key-check.ts): a process started with another secret, or on an embedded database restored
 * without its key-encryption.secret, refuses to start instead of failing at every webhook later.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { checkKeyEncryptionSecret, KeyEncryptionSecretMismatch } from "@/lib/db/key-check";
import { instanceFacts } from "@/lib/db/schema";
import { keyEncryptionCheck } from "@/lib/crypto";
import { startApp, type AppProcess } from "../helpers/server";
import { createTestAccount } from "../helpers/accounts";

const FACT = eq(instanceFacts.name, "key_encryption_check");
const dirs: string[] = [];
let app: AppProcess | undefined;

afterAll(async () => {
  await app?.stop("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the key-encryption check in the database", () => {
  it("is written at the first start, holds the check of this process's secret, and another secret is refused", async () => {
    const db = getDb();
    const [stored] = await db.select().from(instanceFacts).where(FACT);
    expect(stored.value).toBe(keyEncryptionCheck());
    // Not the secret, nor anything of it in clear.
    expect(stored.value).not.toContain(process.env.KEY_ENCRYPTION_SECRET ?? "-");
    await checkKeyEncryptionSecret(db);

    await db.update(instanceFacts).set({ value: "made-with-another-secret" }).where(FACT);
    try {
      const refused = await checkKeyEncryptionSecret(db).then(() => null, (e: unknown) => e);
      expect(refused).toBeInstanceOf(KeyEncryptionSecretMismatch);
      expect((refused as Error).message).toMatch(/^KEY_ENCRYPTION_SECRET is not the secret this database's secrets were encrypted with/);
    } finally {
      await db.update(instanceFacts).set({ value: stored.value }).where(FACT);
    }
    await checkKeyEncryptionSecret(db);
  });
});

describe("the first start of a database upgraded from before the check (secrets in it, no check yet)", () => {
  it("refuses a secret that cannot read the secrets already there, and writes the check only for one that can", async () => {
    const db = getDb();
    await createTestAccount("Loja Chave"); // at least one account: an encrypted webhook secret
    const [stored] = await db.select().from(instanceFacts).where(FACT);
    const g = globalThis as unknown as { __araraKek?: Buffer };
    const right = g.__araraKek!;
    await db.delete(instanceFacts).where(FACT);
    try {
      g.__araraKek = Buffer.alloc(32, 7); // another installation's key
      const refused = await checkKeyEncryptionSecret(db).then(() => null, (e: unknown) => e);
      expect(refused).toBeInstanceOf(KeyEncryptionSecretMismatch);
      expect((refused as Error).message).toMatch(/^KEY_ENCRYPTION_SECRET is not the secret this database's secrets were encrypted with/);
      // Nothing written for the wrong one: the right one is not refused afterwards.
      expect(await db.select().from(instanceFacts).where(FACT)).toEqual([]);
    } finally {
      g.__araraKek = right;
    }
    await checkKeyEncryptionSecret(db);
    expect((await db.select().from(instanceFacts).where(FACT))[0].value).toBe(stored.value);
  });
});

describe("an embedded database restored without its key-encryption.secret", () => {
  it("refuses to start naming the missing file, refuses another secret file, and starts with the right one", async () => {
    const base = mkdtempSync(path.join(tmpdir(), "arara-kek-"));
    dirs.push(base);
    const dir = path.join(base, "pglite");
    const secretFile = path.join(base, "key-encryption.secret");
    // No KEY_ENCRYPTION_SECRET: the secret is made once and kept beside the database.
    const env = { PGLITE_DIR: dir, DATABASE_URL: "", KEY_ENCRYPTION_SECRET: "", DEMO_MERCHANT: "true" };
    app = await startApp({ env });
    await app.stop("SIGTERM");
    app = undefined;
    expect(existsSync(secretFile)).toBe(true);
    const original = readFileSync(secretFile, "utf8");

    // The backup restored without the file.
    renameSync(secretFile, `${secretFile}.kept`);
    const missing = await startApp({ env }).then(
      (a) => ((app = a), null),
      (e: Error) => e.message,
    );
    expect(missing).toMatch(/app exited with 1/);
    expect(missing).toContain(`arara cannot start: The embedded database holds secrets encrypted under its key-encryption secret, but ${secretFile} is missing.`);
    // Refused before a new secret was made: the operator's next step is to restore the file, not to find a stray one.
    expect(existsSync(secretFile)).toBe(false);

    // Another installation's secret file.
    writeFileSync(secretFile, "another-installations-secret-0123456789\n", { mode: 0o600 });
    const other = await startApp({ env }).then(
      (a) => ((app = a), null),
      (e: Error) => e.message,
    );
    expect(other).toContain(`arara cannot start: ${secretFile} is not the key-encryption secret this database's secrets were encrypted with`);

    writeFileSync(secretFile, original, { mode: 0o600 });
    app = await startApp({ env });
    expect((await fetch(`${app.url}/api/v1/health`)).status).toBe(200);
  }, 180_000);
});
