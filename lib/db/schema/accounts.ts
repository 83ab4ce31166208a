import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { COLUMN_VALUES, oneOf } from "./enum-checks";
import type { PostalAddress } from "@/lib/domain/address";
import type { FeePlan } from "@/lib/domain/fees";

/** A merchant account ("company" in the API). */
export const companies = pgTable("companies", {
  id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ startWith: 1 }),
  name: text().notNull(),
  documentType: text().notNull(), // cpf | cnpj
  document: text().notNull(),
  email: text().notNull(),
  pixKey: text(),
  pixKeyType: text(),
  /** City printed in BR Codes (BACEN field 60, ASCII, 15 max). */
  city: text().notNull().default("SAO PAULO"),
  /** Postal address printed on boletos as the beneficiary's (optional; dashboard settings). */
  address: jsonb().$type<PostalAddress>(),
  feePlan: jsonb().$type<FeePlan>().notNull(),
  publicKey: text().notNull().unique(),
  /** The whsec_ signing secret, encrypted with the key-encryption secret (AES-256-GCM): it must be revealable. */
  webhookSecretEnc: text().notNull(),
  livemode: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
}, (t) => [
  check("companies_document_type_check", oneOf(t.documentType, COLUMN_VALUES.documentType)),
  check("companies_pix_key_type_check", oneOf(t.pixKeyType, COLUMN_VALUES.pixKeyType)),
]);

/** Secret keys: only a SHA-256 hash is kept; the clear key is shown once. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    secretHash: text().notNull(),
    /** First characters and last four, for display: "sk_test_Ab…wxyz". */
    hint: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_idx").on(t.secretHash), index("api_keys_company_idx").on(t.companyId)],
);

/** Dashboard logins (next-auth credentials). */
export const users = pgTable(
  "users",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    email: text().notNull(),
    name: text().notNull(),
    passwordHash: text().notNull(),
    /**
     * Carried in the session (JWT) at sign-in and compared on every request: sign-out and a secret key
     * rotation add one, which ends every session issued before, copied cookies included.
     */
    sessionVersion: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_idx").on(sql`lower(${t.email})`)],
);
