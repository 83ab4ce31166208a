import { eq } from "drizzle-orm";
import { decrypt, keyEncryptionCheck, keyEncryptionSecretSource, safeEqual } from "@/lib/crypto";
import { companies, instanceFacts } from "./schema";
import type { Db } from "./client";

const FACT = "key_encryption_check";

/** The key-encryption secret at hand is not the one this database's secrets were encrypted with. */
export class KeyEncryptionSecretMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyEncryptionSecretMismatch";
  }
}

/**
 * Every secret the database keeps (webhook signing secrets, PSP credentials and certificates' keys)
 * is encrypted under the key-encryption secret (lib/crypto.ts). Started with another secret (a backup
 * restored without its `key-encryption.secret`, a KEY_ENCRYPTION_SECRET mistyped or from another
 * installation), the app would run and fail at every webhook and PSP call. So the first start writes
 * a check of the secret (keyEncryptionCheck: reveals nothing of it) to `instance_facts`, once the
 * secret has read a secret already in the database if there is one (an upgraded database), and every
 * process that opens the database compares: another secret refuses to start, saying which one to
 * restore. Where the secret is the file beside the embedded database and that file is gone, the
 * process refuses before making a new one (a new file would hide the old one's absence).
 */
export async function checkKeyEncryptionSecret(db: Db): Promise<void> {
  const [stored] = await db.select({ value: instanceFacts.value }).from(instanceFacts).where(eq(instanceFacts.name, FACT));
  const source = keyEncryptionSecretSource();
  if (stored && source.from === "file" && !source.exists) {
    throw new KeyEncryptionSecretMismatch(
      `The embedded database holds secrets encrypted under its key-encryption secret, but ${source.file} is missing. ` +
        `Restore that file from the backup made with the database (README, Backups and upgrades), or set KEY_ENCRYPTION_SECRET to the secret it held. ` +
        `A new secret would leave every webhook secret and PSP credential unreadable.`,
    );
  }
  const check = keyEncryptionCheck();
  if (!stored) {
    // The first start, or the first since this check exists (an upgraded database, which already holds
    // secrets): the secret at hand must read one of them before its check is written, or the check
    // would hold a wrong secret as the right one from then on.
    const [sample] = await db.select({ box: companies.webhookSecretEnc }).from(companies).limit(1);
    if (sample && decrypt(sample.box) === null) throw new KeyEncryptionSecretMismatch(`${mismatchOf(source)}. Started with it, every webhook secret and PSP credential would be unreadable.`);
    // Two processes at once: one row wins.
    await db.insert(instanceFacts).values({ name: FACT, value: check }).onConflictDoNothing();
    const [now] = await db.select({ value: instanceFacts.value }).from(instanceFacts).where(eq(instanceFacts.name, FACT));
    if (now && safeEqual(now.value, check)) return;
  } else if (safeEqual(stored.value, check)) {
    return;
  }
  throw new KeyEncryptionSecretMismatch(`${mismatchOf(source)}. Started with it, every webhook secret and PSP credential would be unreadable.`);
}

function mismatchOf(source: ReturnType<typeof keyEncryptionSecretSource>): string {
  return source.from === "env"
    ? "KEY_ENCRYPTION_SECRET is not the secret this database's secrets were encrypted with: set it to the one used before (the same for every app, worker and script)"
    : `${source.file} is not the key-encryption secret this database's secrets were encrypted with: restore the file made with this database (README, Backups and upgrades)`;
}

