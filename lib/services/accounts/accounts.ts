import { and, eq, isNull, sql } from "drizzle-orm";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { getDb, type Db, type Queryable } from "@/lib/db/client";
import { preparedOn } from "@/lib/db/prepared";
import { apiKeys, companies, users } from "@/lib/db/schema";
import { randomBase62, sha256Hex, encrypt, decrypt, safeEqual } from "@/lib/crypto";
import { detectDocumentType, isValidDocument, normalizeDocument } from "@/lib/domain/documents";
import { parsePixKey } from "@/lib/domain/pix/keys";
import { asciiFold } from "@/lib/domain/text";
import { DEFAULT_FEE_PLAN } from "@/lib/domain/fees";
import { ensureLedgerAccounts } from "@/lib/ledger/accounts";
import { ServiceError, validation } from "../errors";
import type { Account } from "../context";

export const PUBLIC_KEY_RE = /^pk_(test|live)_[A-Za-z0-9]{24,}$/;
export const SECRET_KEY_RE = /^sk_(test|live)_[A-Za-z0-9]{32,}$/;

export const newPublicKey = () => `pk_test_${randomBase62(24)}`;
export const newSecretKey = () => `sk_test_${randomBase62(32)}`;
export const newWebhookSecret = () => `whsec_${Buffer.from(randomBase62(32)).toString("base64")}`;
export const secretKeyHint = (sk: string) => `${sk.slice(0, 10)}…${sk.slice(-4)}`;

/**
 * The account's PIX merchant city, taken as the settings page takes it (up to 60 characters, so a
 * merchant types the real name): the PIX code prints it folded to ASCII and cut at the 15 characters
 * of BR Code field 60 (lib/domain/pix/brcode.ts), as both forms' hints say. Letters, spaces,
 * hyphens, apostrophes, dots.
 */
export const MERCHANT_CITY_MAX = 60;

/** Why a city cannot be the account's PIX city (pt-BR, shown at sign-up), or null when it can. */
export function merchantCityProblem(city: string): string | null {
  const c = city.trim().replace(/\s+/g, " ");
  if (!c) return "Informe a cidade que aparece no PIX.";
  if (!/^[\p{L}\s'.-]+$/u.test(c) || !/[A-Za-z]/.test(asciiFold(c))) return "Use só letras (e espaços, hífen ou apóstrofo).";
  if (c.length < 2) return "Informe o nome da cidade (pelo menos 2 letras).";
  if (c.length > MERCHANT_CITY_MAX) return `Use até ${MERCHANT_CITY_MAX} caracteres.`;
  return null;
}

export const CreateAccountInput = z.object({
  name: z.string().trim().min(2, "must have at least 2 characters").max(120),
  document: z.string().trim().min(1, "is required"),
  email: z.string().trim().toLowerCase().pipe(z.email("must be a valid e-mail address")),
  password: z.string().min(8, "must have at least 8 characters").max(200).optional(),
  pixKey: z.string().trim().optional(),
  /** The PIX merchant city; absent: "SAO PAULO", left unconfirmed for the merchant to check. */
  city: z
    .string()
    .trim()
    .transform((c) => c.replace(/\s+/g, " "))
    .superRefine((c, ctx) => {
      const problem = merchantCityProblem(c);
      if (problem) ctx.addIssue({ code: "custom", message: `must be a city name of letters (spaces, hyphens, apostrophes allowed), 2 to ${MERCHANT_CITY_MAX} characters` });
    })
    .optional(),
});
export type CreateAccountInput = z.input<typeof CreateAccountInput>;

export type CreatedAccount = {
  companyId: number;
  publicKey: string;
  secretKey: string;
  webhookSecret: string;
};

type Fixed = { publicKey: string; secretKey: string; webhookSecret: string };

/** Creates a merchant account with its keys, ledger accounts and (with a password) a dashboard login. */
export async function createAccount(raw: CreateAccountInput, fixed?: Fixed): Promise<CreatedAccount> {
  const parsed = CreateAccountInput.safeParse(raw);
  if (!parsed.success) {
    throw validation(
      "The account data is invalid.",
      parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
    );
  }
  const input = parsed.data;
  const document = normalizeDocument(input.document);
  const documentType = detectDocumentType(document);
  if (!documentType || !isValidDocument(documentType, document)) {
    throw validation("The document is not a valid CPF or CNPJ.", [
      { field: "document", message: "must be a valid CPF (11 digits) or CNPJ (14 characters)" },
    ]);
  }
  let pixKey: string | null = null;
  let pixKeyType: string | null = null;
  if (input.pixKey) {
    const r = parsePixKey(input.pixKey);
    if (!r.ok) throw validation("The PIX key is invalid.", [{ field: "pixKey", message: r.message }]);
    pixKey = r.key;
    pixKeyType = r.type;
  } else {
    // Until the merchant sets one, charges are paid to the account's document (a valid PIX key type).
    pixKey = document;
    pixKeyType = documentType;
  }
  const keys = fixed ?? { publicKey: newPublicKey(), secretKey: newSecretKey(), webhookSecret: newWebhookSecret() };
  const passwordHash = input.password ? await bcrypt.hash(input.password, 10) : null;

  const db = getDb();
  return db.transaction(async (tx) => {
    if (passwordHash) {
      const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
      if (existing.length) {
        throw new ServiceError("conflict", "An account with this e-mail already exists.", [
          { field: "email", message: "is already registered" },
        ]);
      }
    }
    const [company] = await tx
      .insert(companies)
      .values({
        name: input.name,
        document,
        documentType,
        email: input.email,
        pixKey,
        pixKeyType,
        city: input.city ?? "SAO PAULO",
        cityConfirmedAt: input.city ? new Date() : null,
        feePlan: DEFAULT_FEE_PLAN,
        publicKey: keys.publicKey,
        webhookSecretEnc: encrypt(keys.webhookSecret),
      })
      .returning();
    await tx.insert(apiKeys).values({
      companyId: company.id,
      secretHash: sha256Hex(keys.secretKey),
      hint: secretKeyHint(keys.secretKey),
    });
    if (passwordHash) {
      await tx.insert(users).values({ companyId: company.id, email: input.email, name: input.name, passwordHash });
    }
    await ensureLedgerAccounts(tx, company.id);
    return { companyId: company.id, ...keys };
  });
}

/**
 * Finds the account of a secret key. The hash lookup is by equality on a SHA-256 of a high-entropy
 * key, so no timing leaks the key; the public key, when given, is compared in constant time.
 */
export async function findAccountBySecretKey(secretKey: string, db: Queryable = getDb()): Promise<Account | null> {
  if (!SECRET_KEY_RE.test(secretKey)) return null;
  const secretHash = sha256Hex(secretKey);
  const rows = db === getDb() ? await preparedOn(db as Db, "find_account_by_secret_hash", prepareAuthLookup).execute({ secretHash }) : await accountBySecretHash(db, secretHash);
  return rows[0]?.company ?? null;
}

function accountBySecretHash(db: Queryable, secretHash: string | ReturnType<typeof sql.placeholder>) {
  return db
    .select({ company: companies })
    .from(apiKeys)
    .innerJoin(companies, eq(companies.id, apiKeys.companyId))
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)))
    .limit(1);
}

// Prepared once per database handle: drizzle builds its SQL and row mapping once instead of per call.
const prepareAuthLookup = (db: Db) => accountBySecretHash(db, sql.placeholder("secretHash")).prepare("find_account_by_secret_hash");

// Every card tokenization asks it: prepared once per database handle, like the secret key's lookup
// (drizzle built this select of every column on each call: about 0.1 ms of a tokenization's CPU,
// tests/bench/PROFILE.md, seventeenth round), and named, so the server keeps it prepared.
const prepareAccountByPublicKey = (db: Db) =>
  db.select().from(companies).where(eq(companies.publicKey, sql.placeholder("publicKey"))).limit(1).prepare("account_by_public_key");

export async function findAccountByPublicKey(publicKey: string): Promise<Account | null> {
  if (!PUBLIC_KEY_RE.test(publicKey)) return null;
  const rows = await preparedOn(getDb(), "account_by_public_key", prepareAccountByPublicKey).execute({ publicKey });
  const account = rows[0];
  return account && safeEqual(account.publicKey, publicKey) ? account : null;
}

export async function findAccountById(id: number, db: Queryable = getDb()): Promise<Account | null> {
  const rows = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Revokes every active secret key of the account and issues a new one, shown once. */
export async function rotateSecretKey(companyId: number, now = new Date()): Promise<{ secretKey: string; hint: string }> {
  const secretKey = newSecretKey();
  await getDb().transaction(async (tx) => {
    await tx.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.companyId, companyId), isNull(apiKeys.revokedAt)));
    await tx.insert(apiKeys).values({ companyId, secretHash: sha256Hex(secretKey), hint: secretKeyHint(secretKey) });
    // A rotation answers a leak: every dashboard session of the account ends with the old key.
    await tx.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.companyId, companyId));
  });
  return { secretKey, hint: secretKeyHint(secretKey) };
}

export function revealWebhookSecret(account: Account): string {
  const s = decrypt(account.webhookSecretEnc);
  if (!s) {
    // The server's KEY_ENCRYPTION_SECRET is not the one the secret was written with (changed, or a script
    // that ran with another): a new secret is the way out, so say so instead of "something went wrong".
    throw new ServiceError("unprocessable", "The webhook secret cannot be decrypted with the configured KEY_ENCRYPTION_SECRET: generate a new one.", undefined, {
      messagePt:
        "O segredo de webhook desta conta não pode ser lido com a KEY_ENCRYPTION_SECRET deste servidor (ela foi trocada?). Gere um novo segredo abaixo e atualize-o onde você verifica os webhooks.",
    });
  }
  return s;
}

export async function rotateWebhookSecret(companyId: number): Promise<string> {
  const secret = newWebhookSecret();
  await getDb().update(companies).set({ webhookSecretEnc: encrypt(secret) }).where(eq(companies.id, companyId));
  return secret;
}

/** The account as the API shows it (GET /api/v1/company). */
export function companyView(a: Account) {
  return {
    id: a.id,
    name: a.name,
    document: a.document,
    documentType: a.documentType,
    email: a.email,
    pixKey: a.pixKey,
    pixKeyType: a.pixKeyType,
    publicKey: a.publicKey,
    feePlan: a.feePlan,
    createdAt: a.createdAt.toISOString(),
  };
}
