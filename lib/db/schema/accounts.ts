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
  /**
   * When the merchant last gave or saved the city themselves (sign-up, account:create --city,
   * settings). Null: the city is still the default put in by account creation, never checked
   * (the overview's "Primeiros passos" asks the merchant to check it).
   */
  cityConfirmedAt: timestamp({ withTimezone: true, mode: "date" }),
  /** Postal address printed on boletos as the beneficiary's (optional; dashboard settings). */
  address: jsonb().$type<PostalAddress>(),
  feePlan: jsonb().$type<FeePlan>().notNull(),
  publicKey: text().notNull().unique(),
  /** The whsec_ signing secret, encrypted with the key-encryption secret (AES-256-GCM): it must be revealable. */
  webhookSecretEnc: text().notNull(),
  livemode: boolean().notNull().default(false),
  /**
   * The default webhook URL (dashboard, Desenvolvedores): a transaction or cash-out created without a
   * postbackUrl takes it (lib/services/accounts/default-webhook-url.ts). Null: none.
   */
  webhookUrl: text(),
  /**
   * Card installments the merchant offers (dashboard "Parcelamento"; lib/domain/installments.ts): up
   * to `installmentMax`, the first `installmentInterestFree` without interest, the others at
   * `installmentMonthlyRateBp` basis points a month (Price table) paid by the payer. The defaults are
   * the behaviour before the setting existed: 12x, all interest-free.
   */
  installmentMax: integer().notNull().default(12),
  installmentInterestFree: integer().notNull().default(12),
  installmentMonthlyRateBp: integer().notNull().default(0),
  createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
}, (t) => [
  check("companies_document_type_check", oneOf(t.documentType, COLUMN_VALUES.documentType)),
  check("companies_pix_key_type_check", oneOf(t.pixKeyType, COLUMN_VALUES.pixKeyType)),
  check("companies_installment_max_check", sql`${t.installmentMax} between 1 and 12`),
  check("companies_installment_interest_free_check", sql`${t.installmentInterestFree} between 1 and ${t.installmentMax}`),
  check("companies_installment_monthly_rate_check", sql`${t.installmentMonthlyRateBp} between 0 and 1000`),
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

/**
 * Invitations to a merchant's team (dashboard Configurações → Equipe; lib/services/accounts/team.ts).
 * The token is shown once to the inviter as a link; only its SHA-256 is kept. Accepting deletes the row
 * in the transaction that creates the user (`DELETE ... RETURNING`), so a token is used at most once.
 * One pending invitation per e-mail and account: inviting again replaces it.
 */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    email: text().notNull(),
    name: text().notNull(),
    /** SHA-256 (hex) of the token in the link. */
    tokenHash: text().notNull(),
    /** Who invited (a user id; no foreign key: a removed user's invitations stay valid until they expire). */
    invitedBy: bigint({ mode: "number" }),
    expiresAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("team_invitations_token_hash_idx").on(t.tokenHash),
    uniqueIndex("team_invitations_company_email_idx").on(t.companyId, sql`lower(${t.email})`),
  ],
);

/** What a team event records (a new value is a new migration: the CHECK below lists them). */
export const TEAM_EVENT_ACTIONS = ["invited", "invitation_cancelled", "joined", "removed"] as const;

/**
 * The team's history (Configurações → Equipe → Histórico da equipe): one row per invitation,
 * cancellation, acceptance and removal, written in the transaction of the change itself.
 */
export const teamEvents = pgTable(
  "team_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    /** Who did it (the one who joined, for "joined"); no foreign key: a removed login's history stays. */
    actorUserId: bigint({ mode: "number" }).notNull(),
    /** The actor's name then (the login may be removed later). */
    actorName: text().notNull(),
    action: text().notNull(),
    /** The e-mail invited, whose invitation was cancelled, who joined or was removed. */
    targetEmail: text().notNull(),
    at: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("team_events_company_at_idx").on(t.companyId, t.at.desc(), t.id.desc()),
    check("team_events_action_check", oneOf(t.action, TEAM_EVENT_ACTIONS)),
  ],
);
