import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/env";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Constant-time comparison of two strings (of any length). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

const g = globalThis as unknown as { __araraKek?: Buffer };

/**
 * The key-encryption key: from KEY_ENCRYPTION_SECRET, or for the embedded default generated once and
 * kept beside the database so restarts can still decrypt what was encrypted before.
 */
export function keyEncryptionKey(): Buffer {
  if (g.__araraKek) return g.__araraKek;
  const env = getEnv();
  let secret = env.keyEncryptionSecret;
  if (!secret) {
    const { file } = keyEncryptionSecretSource() as { file: string };
    if (existsSync(file)) {
      secret = readFileSync(file, "utf8").trim();
    } else {
      mkdirSync(path.dirname(file), { recursive: true });
      secret = randomBytes(32).toString("base64");
      try {
        writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
      } catch {
        // Another process wrote it first: use theirs.
        secret = readFileSync(file, "utf8").trim();
      }
    }
  }
  g.__araraKek = createHash("sha256").update(`arara-kek:${secret}`).digest();
  return g.__araraKek;
}

/** Where the key-encryption secret comes from: KEY_ENCRYPTION_SECRET, or the file kept beside the embedded database. */
export function keyEncryptionSecretSource(): { from: "env" } | { from: "file"; file: string; exists: boolean } {
  const env = getEnv();
  if (env.keyEncryptionSecret) return { from: "env" };
  const dataDir = env.pgliteDir.startsWith("memory://") ? ".data" : path.dirname(path.resolve(env.pgliteDir));
  const file = path.resolve(dataDir, "key-encryption.secret");
  return { from: "file", file, exists: existsSync(file) };
}

/**
 * A value that tells whether a key-encryption key is the one a database's secrets were encrypted
 * with, without saying anything about the key: an HMAC of a fixed text under a key derived from it.
 */
export function keyEncryptionCheck(): string {
  return createHmac("sha256", derivedKey("key-encryption-check")).update("arara: the secrets of this database").digest("base64url");
}

/** Derives a purpose-bound 32-byte key from the key-encryption key. */
export function derivedKey(purpose: string): Buffer {
  return createHash("sha256").update(keyEncryptionKey()).update(`:${purpose}`).digest();
}

/** AES-256-GCM; output is base64url(iv | tag | ciphertext). */
export function encrypt(plain: string, key: Buffer = keyEncryptionKey(), aad?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString("base64url");
}

/** Returns null when the box was not made with this key (or was tampered with). */
export function decrypt(box: string, key: Buffer = keyEncryptionKey(), aad?: string): string | null {
  try {
    const raw = Buffer.from(box, "base64url");
    if (raw.length < 29) return null;
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    if (aad) decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
