import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./accounts";
import { cashOuts } from "./cash-outs";
import { transactions } from "./transactions";

/**
 * How an account receives PIX (lib/processors/api-pix): the sandbox (the default: no row, or
 * processor "sandbox") or a PSP speaking Banco Central's API Pix with the merchant's own
 * credentials. One row per account; new charges read it, a charge keeps the processor it was made
 * with (transactions.acquirerType) and is followed through this row's current credentials.
 *
 * Secrets are encrypted with the key-encryption secret (AES-256-GCM, lib/crypto.ts), each bound to
 * its account and field (AAD), and are never shown again: the dashboard only says whether each is set.
 */
export const accountPspConfigs = pgTable(
  "account_psp_configs",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" })
      .notNull()
      .references(() => companies.id),
    /** "sandbox" | "api-pix": the processor of new PIX charges. */
    processor: text().notNull(),
    baseUrl: text(),
    tokenUrl: text(),
    clientId: text(),
    /** Null: no secret (client "body" auth with a certificate-bound id, as Sicoob issues). */
    clientSecretEnc: text(),
    /**
     * How the token request authenticates the client: "basic" (HTTP Basic with id and secret, RFC 6749
     * client_secret_basic; most PSPs) or "body" (`client_id`, and `client_secret` when there is one, in
     * the form; the id is then also sent as a `client_id` header on every API call, as Sicoob asks).
     */
    clientAuth: text().notNull().default("basic"),
    /**
     * The `scope` of the token request: null asks the API Pix operations' scopes (DEFAULT_API_PIX_SCOPE,
     * plus Efí's Pix Envio scopes when cash-outs go through it); "" sends none (the PSP grants the
     * application's own); anything else is sent as written.
     */
    scope: text(),
    /** PEM certificate (not secret) and its key (encrypted), or a PKCS#12 bundle (encrypted, base64) and its password. */
    certPem: text(),
    keyPemEnc: text(),
    pkcs12Enc: text(),
    pkcs12PasswordEnc: text(),
    /** CA of the PSP's server certificate, when it is not one the system trusts. */
    caPem: text(),
    /** The merchant's PIX key at the PSP (DICT form): the `chave` of every charge. */
    pixKey: text(),
    /** The unguessable part of the webhook URL registered at the PSP (`/api/v1/psp/api-pix/{token}`). */
    webhookToken: text().notNull(),
    /** When `PUT /webhook/{chave}` last succeeded, and the URL it registered. */
    webhookRegisteredAt: timestamp({ withTimezone: true, mode: "date" }),
    webhookUrl: text(),
    /** Reconciliation: the end of the last `GET /pix` window read, and the lease of the instance reading it. */
    pixScannedUntil: timestamp({ withTimezone: true, mode: "date" }),
    leaseUntil: timestamp({ withTimezone: true, mode: "date" }),
    /**
     * The webhook's re-reads of ids that name nothing of ours (api-pix-webhook.ts): how many were
     * made in the minute that started at `unknownReadsSince` (at most UNKNOWN_READS_PER_MINUTE).
     */
    unknownReadsSince: timestamp({ withTimezone: true, mode: "date" }),
    unknownReads: integer().notNull().default(0),
    /**
     * Cash-outs of an account receiving through its PSP: null (none: refused, Arara holds none of its
     * money) or "efi" (Efí's Pix Envio with these same credentials, paid from `payoutPayerKey`'s account).
     */
    payoutProvider: text(),
    /** The merchant's PIX key at Efí that pays the cash-outs (`pagador.chave`), DICT form. */
    payoutPayerKey: text(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_psp_configs_company_idx").on(t.companyId),
    uniqueIndex("account_psp_configs_webhook_token_idx").on(t.webhookToken),
    check("account_psp_configs_client_auth_check", sql`${t.clientAuth} in ('basic', 'body')`),
    check("account_psp_configs_payout_provider_check", sql`${t.payoutProvider} is null or (${t.payoutProvider} = 'efi' and ${t.payoutPayerKey} is not null)`),
  ],
);

/**
 * A PIX charge made at an API Pix PSP (`PUT /cob/{txid}`): what the webhook and the reconciliation
 * need to follow it. `status`: pending (waiting for the payer) | paid | expired (no payment came
 * before the end of the late-payment window: no longer polled).
 */
export const pspCharges = pgTable(
  "psp_charges",
  {
    transactionId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => transactions.id),
    companyId: bigint({ mode: "number" })
      .notNull()
      .references(() => companies.id),
    txid: text().notNull(),
    amount: bigint({ mode: "number" }).notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    status: text().notNull(),
    e2eid: text(),
    nextCheckAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    leaseUntil: timestamp({ withTimezone: true, mode: "date" }),
    checkedAt: timestamp({ withTimezone: true, mode: "date" }),
    /**
     * The re-reads PSP notifications made of this charge (api-pix-webhook.ts) in the window that
     * started at `notifiedReadsSince`: at most NOTIFIED_READS_PER_WINDOW; a notification past them
     * marks it due instead. Apart from `checkedAt`, which the reconciliation's backoff counts from.
     */
    notifiedReadsSince: timestamp({ withTimezone: true, mode: "date" }),
    notifiedReads: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("psp_charges_company_txid_idx").on(t.companyId, t.txid),
    index("psp_charges_due_idx").on(t.nextCheckAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Every Pix the PSP reported for one of our charges, once (by end-to-end id), with what was decided
 * about it: `paid` (it paid the charge), `amount_mismatch`, `duplicate`, `paid_after_expiry`.
 * The unique e2eid makes a notification seen twice (webhook and reconciliation) decided once.
 */
export const pspPixReceived = pgTable(
  "psp_pix_received",
  {
    e2eid: text().primaryKey(),
    companyId: bigint({ mode: "number" })
      .notNull()
      .references(() => companies.id),
    transactionId: bigint({ mode: "number" })
      .notNull()
      .references(() => transactions.id),
    amount: bigint({ mode: "number" }).notNull(),
    paidAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    decision: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * Due for a re-read (`GET /pix/{e2eid}`) by the reconciliation: set (to the epoch) by a PSP
     * notification that names this Pix, when it paid one of our charges, and that was not read at once
     * (past the first items, or past the charge's budget): a MED return, or a devolução made in the
     * PSP's app, notified weeks after the payment is then still booked. Null when nothing is due.
     * While the reconciliation reads it, it holds the end of its lease; after a failed read, when to
     * try again (api-pix-reconcile.ts).
     */
    nextCheckAt: timestamp({ withTimezone: true, mode: "date" }),
    /** Since when it has been due without a good read: the failed reads' backoff counts from it. */
    dueSince: timestamp({ withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("psp_pix_received_tx_idx").on(t.transactionId),
    index("psp_pix_received_due_idx").on(t.companyId, t.nextCheckAt).where(sql`${t.nextCheckAt} is not null`),
  ],
);

/**
 * A refund of a PIX received through an API Pix PSP (`PUT /pix/{e2eid}/devolucao/{id}`).
 * status: requested (not yet accepted by the PSP) | processing (EM_PROCESSAMENTO) | done (DEVOLVIDO,
 * booked: the ledger and the transaction moved) | failed (NAO_REALIZADO or refused by the PSP).
 * The refund is paid when the PSP says DEVOLVIDO; until then its amount is held in the merchant's
 * `reserved` ledger account (moved there from available with the row, docs/psp-api-pix.md).
 *
 * `initiatedBy` "psp": a devolução made at the PSP without Arara (a MED return, `natureza` MED_*; or
 * one the merchant made in the PSP's app, ORIGINAL or none), found listed on the Pix: its id is the PSP's, it held nothing
 * (`reserved` false) and is booked from availableAtPsp when DEVOLVIDO, once (the unique (e2eid,
 * devolucaoId) index, inserted in the transaction that books it; lib/services/psp/api-pix-refunds.ts).
 */
export const pspRefunds = pgTable(
  "psp_refunds",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" })
      .notNull()
      .references(() => companies.id),
    transactionId: bigint({ mode: "number" })
      .notNull()
      .references(() => transactions.id),
    e2eid: text().notNull(),
    /** Our id of the devolução (unique per e2eid at the PSP). */
    devolucaoId: text().notNull(),
    amount: bigint({ mode: "number" }).notNull(),
    status: text().notNull(),
    /**
     * The amount was moved from available to reserved when the refund was requested (every refund
     * since migration 0016): DEVOLVIDO pays it from reserved, a failure releases it. false: a refund
     * opened before, which held nothing; it is booked from available at DEVOLVIDO, as it was then.
     */
    reserved: boolean().notNull().default(false),
    rtrId: text(),
    failReason: text(),
    /** "merchant" (asked through Arara) | "psp" (made at the PSP without Arara: MED, or in the PSP's app). */
    initiatedBy: text().notNull().default("merchant"),
    /** The PSP's DevolucaoNatureza of a return made without Arara (MED_*, ORIGINAL, or null when none given); null for the merchant's own. */
    natureza: text(),
    /** The PSP's `motivo` of a return made without Arara, when it gave one. */
    motivo: text(),
    nextCheckAt: timestamp({ withTimezone: true, mode: "date" }),
    leaseUntil: timestamp({ withTimezone: true, mode: "date" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("psp_refunds_devolucao_idx").on(t.e2eid, t.devolucaoId),
    index("psp_refunds_tx_idx").on(t.transactionId),
    index("psp_refunds_open_idx").on(t.nextCheckAt).where(sql`${t.status} in ('requested', 'processing')`),
    check("psp_refunds_initiated_by_check", sql`${t.initiatedBy} in ('merchant', 'psp')`),
  ],
);

/**
 * A cash-out sent through the merchant's PSP (Efí's Pix Envio), written in the transaction that
 * requests the cash-out. `idEnvio` is drawn once here: every retry of the send uses it, and Efí never
 * makes two transfers for one idEnvio. `pspStatus`: the PSP's last word (null until it accepted the send).
 */
export const pspPayouts = pgTable(
  "psp_payouts",
  {
    cashOutId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => cashOuts.id),
    companyId: bigint({ mode: "number" })
      .notNull()
      .references(() => companies.id),
    provider: text().notNull(),
    idEnvio: text().notNull(),
    /** The paying key at the PSP when the cash-out was requested (a later settings change does not move it). */
    payerKey: text().notNull(),
    sendAttempts: integer().notNull().default(0),
    pspStatus: text(),
    e2eId: text(),
    /** Why the cash-out is waiting, `code: sentence in Portuguese` (null when nothing holds it). */
    lastError: text(),
    /** Since when `lastError` has been answered without interruption (the same code every time). */
    lastErrorSince: timestamp({ withTimezone: true, mode: "date" }),
    /**
     * An attempt so far may have reached the PSP: an accepted send, or one whose outcome is unknown
     * (timeout, 5xx, unreachable, 409, an instance stopped during the call). Only a cash-out for which
     * this stays false (every attempt known never to have left: settings incomplete, token refused) may
     * be failed for incomplete settings: otherwise the PSP may still pay it out.
     */
    mayHaveReachedPsp: boolean().notNull().default(false),
    /** A send is being made (set when the job leases the cash-out, cleared with its answer): one left set counts as reached. */
    sendInFlight: boolean().notNull().default(false),
    /** The start of the current run of "PSP settings incomplete" answers (null when the last answer was another). */
    notConfiguredSince: timestamp({ withTimezone: true, mode: "date" }),
    /** A processing cash-out whose read-back answers 404: since when it has (null once it is found). */
    notFoundSince: timestamp({ withTimezone: true, mode: "date" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("psp_payouts_id_envio_idx").on(t.provider, t.idEnvio),
    check("psp_payouts_provider_check", sql`${t.provider} in ('efi')`),
    check("psp_payouts_id_envio_check", sql`${t.idEnvio} ~ '^[a-zA-Z0-9]{1,35}$'`),
    check("psp_payouts_attempts_check", sql`${t.sendAttempts} >= 0`),
    check("psp_payouts_psp_status_check", sql`${t.pspStatus} in ('EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO')`),
  ],
);
