import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { COLUMN_VALUES, oneOf } from "./enum-checks";
import { companies } from "./accounts";
import type { InstallmentPlan } from "@/lib/domain/installments";
import type { ShippingAddress } from "@/lib/domain/delivery";

export type CustomerRecord = {
  name: string;
  email: string;
  phone: string | null;
  externalRef: string | null;
  document: { type: "cpf" | "cnpj"; number: string };
};
export type ItemRecord = { title: string; unitPrice: number; quantity: number; tangible: boolean; externalRef?: string | null };
export type ShippingRecord = { fee: number | null; address: ShippingAddress | null };

/**
 * No planner statistics are gathered for the wide columns nothing filters, joins or sorts by: customer,
 * items, shipping, pixQrcode, boletoBarcode, boletoDigitableLine, metadata, postbackUrl, returnUrl
 * (migration 0015; drizzle's schema cannot state a column's statistics target).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ startWith: 1000 }),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    secureId: uuid().notNull().unique(),
    status: text().notNull(),
    paymentMethod: text().notNull(),
    amount: bigint({ mode: "number" }).notNull(),
    paidAmount: bigint({ mode: "number" }).notNull().default(0),
    refundedAmount: bigint({ mode: "number" }).notNull().default(0),
    installments: integer().notNull().default(1),
    /**
     * The card charge's own installment plan (the API's installmentPlan, or its payment link's), which a
     * retry with another card on the checkout page keeps; null: the account's plan. No planner
     * statistics (migration 0022, as 0015's wide columns).
     */
    installmentPlan: jsonb().$type<InstallmentPlan>(),
    /** Fee from the account's plan at creation: estimatedFee = fixed + percent part. */
    feeFixed: bigint({ mode: "number" }).notNull().default(0),
    feeEstimated: bigint({ mode: "number" }).notNull().default(0),
    metadata: text(),
    /**
     * Whether metadata was sent as JSON (an object or an array, kept as its JSON text) rather than as
     * a string: /v1 returns it as it was sent. /api/v1 returns the text either way. Rows from before
     * migration 0020 are false (read back as the text, as they always were).
     */
    metadataIsJson: boolean().notNull().default(false),
    acquirerType: text().notNull(),
    /** The processor's own id for the charge (authorization code, PSP txid). */
    acquirerRef: text(),
    externalRef: text(),
    postbackUrl: text(),
    /** Where the hosted checkout's last screen sends the payer back to (the merchant's store). */
    returnUrl: text(),
    customer: jsonb().$type<CustomerRecord>().notNull(),
    /** Denormalised for the list filters. */
    customerEmail: text().notNull(),
    customerDocument: text().notNull(),
    items: jsonb().$type<ItemRecord[]>().notNull(),
    shipping: jsonb().$type<ShippingRecord>(),
    deliveryStatus: text(),
    trackingCode: text(),
    traceable: boolean().notNull().default(false),
    ip: text(),
    // PIX
    pixQrcode: text(),
    pixTxid: text(),
    pixEnd2end: text(),
    /** PIX expiration or boleto due date (end of that day). */
    expiresAt: timestamp({ withTimezone: true, mode: "date" }),
    // Boleto
    boletoBarcode: text(),
    boletoDigitableLine: text(),
    boletoDueDate: text(), // YYYY-MM-DD
    // Card (never the PAN or CVV)
    cardBrand: text(),
    cardHolderName: text(),
    cardFirstDigits: text(),
    cardLastDigits: text(),
    cardExpirationMonth: text(),
    cardExpirationYear: text(),
    refusedReason: text(),
    /** Card funds stay in waiting funds until this time; null once settled or for PIX/boleto. */
    settleAt: timestamp({ withTimezone: true, mode: "date" }),
    settledAt: timestamp({ withTimezone: true, mode: "date" }),
    /** Payment link this transaction was created from, and the refused card charge it retries. */
    checkoutId: bigint({ mode: "number" }),
    retryOfId: bigint({ mode: "number" }),
    /**
     * A payment link's PIX or boleto: SHA-256 (hex) of the attempt key the payer's browser made for the
     * link (kept in its localStorage): a repeat of the request with it is given this charge again
     * (checkout-lookup.ts, pendingRepeatOf). Only the browser that asked knows the key.
     */
    checkoutAttempt: text(),
    /**
     * Set on a payment that arrived for a charge of a payment link already paid by another charge
     * (that charge's id): it was recorded and refunded at once (lib/services/transactions/record-rail-payment.ts).
     */
    duplicateOfId: bigint({ mode: "number" }),
    livemode: boolean().notNull().default(false),
    /**
     * The API dialect the charge was created through: 'api' (/api/v1, the contract's envelope) or
     * 'v1' (/v1, the family's bare resources). Its notifications are sent in the same dialect.
     */
    dialect: text().notNull().default("api"),
    paidAt: timestamp({ withTimezone: true, mode: "date" }),
    /** When the payer's e-mail receipt was handed to the SMTP server (null: not yet, or no SMTP). */
    receiptSentAt: timestamp({ withTimezone: true, mode: "date" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("transactions_company_created_idx").on(t.companyId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("transactions_company_external_ref_idx").on(t.companyId, t.externalRef),
    index("transactions_company_email_idx").on(t.companyId, sql`lower(${t.customerEmail})`),
    index("transactions_company_document_idx").on(t.companyId, t.customerDocument),
    index("transactions_settle_idx").on(t.settleAt).where(sql`${t.settleAt} is not null and ${t.settledAt} is null`),
    /*
     * A payment link is paid once. Its page may issue several charges (a PIX, then a boleto; a
     * refused card, then another card), and whichever is paid first is the link's payment: at most
     * one charge per link may be paid and not a returned duplicate. The services serialise on a row
     * lock of the link and check first (lib/services/checkouts/link-payment.ts); this index is what holds
     * whatever the code path, on any number of processes.
     *
     * Why not simply "at most one paid charge per link": a payment that still arrives for another
     * charge of a paid link (a PIX already sent cannot be refused) must be recorded, so that charge
     * passes through paid on its way to refunded, in the same database transaction, and a refunded
     * link payment stays the link's payment. So the rule is stated on what does not change: paid_at
     * (set once, when the money arrived) and duplicate_of_id (set with it on a returned duplicate).
     */
    uniqueIndex("transactions_one_payment_per_link_idx")
      .on(t.checkoutId)
      .where(sql`${t.checkoutId} is not null and ${t.paidAt} is not null and ${t.duplicateOfId} is null`),
    // "Try another card" is offered once per refused charge: the retries of an order form one chain.
    uniqueIndex("transactions_retry_of_idx").on(t.retryOfId).where(sql`${t.retryOfId} is not null`),
    check("transactions_dialect_check", sql`${t.dialect} in ('api', 'v1')`),
    check("transactions_status_check", oneOf(t.status, COLUMN_VALUES.transactionStatus)),
    check("transactions_payment_method_check", oneOf(t.paymentMethod, COLUMN_VALUES.paymentMethod)),
    check("transactions_delivery_status_check", oneOf(t.deliveryStatus, COLUMN_VALUES.deliveryStatus)),
  ],
);

/** The status timeline of a transaction: one row per move, written with the move. */
export const transactionStatusChanges = pgTable(
  "transaction_status_changes",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint({ mode: "number" }).notNull().references(() => transactions.id),
    fromStatus: text(),
    toStatus: text().notNull(),
    cause: text().notNull(),
    amount: bigint({ mode: "number" }),
    actor: text().notNull(),
    /**
     * The psp_refunds row an entry is about, for the entries of a return the PSP made by itself
     * (psp_med_return, psp_med_return_unbooked): its natureza and motivo are shown with the entry.
     * Null on every other entry (and on those written before migration 0031).
     */
    pspRefundId: bigint({ mode: "number" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("transaction_status_changes_tx_idx").on(t.transactionId, t.id),
    check("transaction_status_changes_from_check", oneOf(t.fromStatus, COLUMN_VALUES.transactionStatus)),
    check("transaction_status_changes_to_check", oneOf(t.toStatus, COLUMN_VALUES.transactionStatus)),
  ],
);

/** Single use of card tokens: the token id is recorded when a charge consumes it. */
export const cardTokenUses = pgTable("card_token_uses", {
  tokenId: text().primaryKey(),
  companyId: bigint({ mode: "number" }).notNull(),
  expiresAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
  usedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Payment links: a hosted page where the payer picks the method. items, methods and installmentPlan have no planner statistics (migration 0015). */
export const checkouts = pgTable(
  "checkouts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ startWith: 500 }),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    secureId: uuid().notNull().unique(),
    status: text().notNull(), // open | paid | expired
    amount: bigint({ mode: "number" }).notNull(),
    description: text(),
    items: jsonb().$type<ItemRecord[]>().notNull(),
    methods: jsonb().$type<string[]>().notNull(),
    externalRef: text(),
    postbackUrl: text(),
    /** Where the hosted checkout's last screen sends the payer back to; copied to the link's charges. */
    returnUrl: text(),
    metadata: text(),
    /** Whether metadata was sent as JSON (an object): copied to the link's charges; /v1 returns it as sent. */
    metadataIsJson: boolean().notNull().default(false),
    /** The link's own installment plan (the API's installmentPlan), overriding the account's; null: the account's. */
    installmentPlan: jsonb().$type<InstallmentPlan>(),
    expiresAt: timestamp({ withTimezone: true, mode: "date" }),
    /**
     * PIX charges asked of the merchant's PSP for this link, counted before each call (which is made
     * outside the link's lock) by one guarded UPDATE: at most MAX_LINK_CHARGES, however many payers
     * ask at once.
     */
    pspChargesAsked: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("checkouts_company_idx").on(t.companyId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check("checkouts_status_check", oneOf(t.status, COLUMN_VALUES.checkoutStatus)),
  ],
);
