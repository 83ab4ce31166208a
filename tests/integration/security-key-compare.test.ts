/**
 * Keys are compared in constant time or looked up by hash, never with ===: a unit check of
 * safeEqual, a source check of the code that handles keys, and a look at what the database keeps.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { safeEqual, sha256Hex } from "@/lib/crypto";
import { getDb } from "@/lib/db/client";
import { createTestAccount } from "../helpers/accounts";

const ROOT = path.resolve(__dirname, "../..");

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const full = path.join(dir, e);
    if (statSync(full).isDirectory()) tsFiles(full, out);
    else if (/\.tsx?$/.test(e)) out.push(full);
  }
  return out;
}

describe("safeEqual (lib/crypto.ts)", () => {
  it("is true only for identical strings", () => {
    const sk = "sk_test_" + "a".repeat(32);
    expect(safeEqual(sk, sk)).toBe(true);
    expect(safeEqual(sk, sk.slice(0, -1) + "b")).toBe(false);
    expect(safeEqual(sk, sk + "a")).toBe(false);
    expect(safeEqual(sk, sk.slice(0, 10))).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("", "x")).toBe(false);
    expect(safeEqual("é", "e\u0301")).toBe(false);
  });

  it("compares fixed-length digests with crypto.timingSafeEqual (no early exit on the first different byte)", () => {
    const src = readFileSync(path.join(ROOT, "lib/crypto.ts"), "utf8");
    const body = src.slice(src.indexOf("export function safeEqual"), src.indexOf("}", src.indexOf("export function safeEqual")) + 1);
    expect(body).toMatch(/timingSafeEqual\(/);
    expect(body).toMatch(/createHash\("sha256"\)/);
    expect(body).not.toMatch(/\ba\s*===\s*b\b/);
  });

  it("takes about the same time for a near miss and a far miss", () => {
    const secret = "sk_test_" + "Q".repeat(40);
    const near = secret.slice(0, -1) + "R";
    const far = "x" + secret.slice(1);
    const time = (other: string) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 20_000; i++) safeEqual(secret, other);
      return Number(process.hrtime.bigint() - t0);
    };
    time(near);
    time(far); // warm up
    const samples = Array.from({ length: 5 }, () => time(near) / time(far)).sort((a, b) => a - b);
    // The median ratio: 1.0 means no difference; generous bounds for a shared, noisy machine.
    expect(samples[2]).toBeGreaterThan(0.5);
    expect(samples[2]).toBeLessThan(2);
  });
});

// Names that hold a key, a secret, a token or a signature. Comparing one with === leaks, through
// timing, how many leading characters matched.
const SECRETISH = /(secret|publickey|apikey|signature|password|cardtoken|whsec|\bsk\b|\bpk\b)/i;
const LITERAL = /^(null|undefined|true|false|\d+|"[^"]*"|'[^']*'|`[^`]*`)$/;
const HARMLESS = /\.length$|\.type$|\.kind$|\.status$|\.code$|Id$|\.id$|Hash$|\.hint$/;

/** Lines of `text` that compare something secret-looking with === or !==. */
function secretComparisons(text: string): string[] {
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (/^\s*(\/\/|\*)/.test(line)) return;
    for (const m of line.matchAll(/([\w.$?\[\]"'`]+)\s*(===|!==)\s*([\w.$?\[\]"'`]+)/g)) {
      const [left, right] = [m[1], m[3]];
      if (LITERAL.test(left) || LITERAL.test(right) || /typeof\s*$/.test(line.slice(0, m.index))) continue;
      if (HARMLESS.test(left) && HARMLESS.test(right)) continue;
      if (SECRETISH.test(left) || SECRETISH.test(right)) out.push(`${i + 1}: ${line.trim()}`);
    }
  });
  return out;
}

describe("code that handles keys never compares them with === or !==", () => {
  it("the check itself flags a plain comparison of keys and lets counts and literals pass", () => {
    expect(secretComparisons("if (account.publicKey === publicKey) ok();")).toHaveLength(1);
    expect(secretComparisons("return sig !== expectedSignature;")).toHaveLength(1);
    expect(secretComparisons("if (creds.secretKey === row.secretKey) {}")).toHaveLength(1);
    expect(secretComparisons("if (secret.length !== 1) return;")).toEqual([]);
    expect(secretComparisons("if (creds.publicKey !== null) x();")).toEqual([]);
    expect(secretComparisons("if (typeof token !== \"string\") return;")).toEqual([]);
  });

  it("lib/http, lib/services, lib/webhooks, lib/auth: only safeEqual or a hash lookup", () => {
    const files = ["lib/http", "lib/services", "lib/webhooks", "lib/auth"].flatMap((d) =>
      statSync(path.join(ROOT, d), { throwIfNoEntry: false }) ? tsFiles(path.join(ROOT, d)) : [],
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((f) => secretComparisons(readFileSync(f, "utf8")).map((l) => `${path.relative(ROOT, f)}:${l}`));
    expect(offenders).toEqual([]);
  });

  it("the secret key is found by an equality lookup on its SHA-256, the public key checked with safeEqual", () => {
    const accounts = readFileSync(path.join(ROOT, "lib/services/accounts/accounts.ts"), "utf8");
    const find = accounts.slice(accounts.indexOf("export async function findAccountBySecretKey"), accounts.indexOf("export async function findAccountByPublicKey"));
    expect(find).toMatch(/const secretHash = sha256Hex\(secretKey\)/);
    expect(find).toMatch(/eq\(apiKeys\.secretHash, secretHash\)/);
    expect(find).not.toMatch(/apiKeys\.secretHash, secretKey/);
    const handler = readFileSync(path.join(ROOT, "lib/http/handler.ts"), "utf8");
    expect(handler).toMatch(/safeEqual\(creds\.publicKey, account\.publicKey\)/);
  });
});

describe("what the database keeps of a secret key", () => {
  it("only its SHA-256 and a short hint, never the key", async () => {
    const acct = await createTestAccount("Keys");
    const rows = (await getDb().execute(sql`select * from api_keys where company_id = ${acct.companyId}`)) as unknown as
      | Record<string, unknown>[]
      | { rows: Record<string, unknown>[] };
    const list = Array.isArray(rows) ? rows : rows.rows;
    expect(list).toHaveLength(1);
    expect(list[0].secret_hash).toBe(createHash("sha256").update(acct.secretKey).digest("hex"));
    expect(list[0].secret_hash).toBe(sha256Hex(acct.secretKey));
    expect(JSON.stringify(list)).not.toContain(acct.secretKey);
    expect(String(list[0].hint).length).toBeLessThan(20);
  });
});
