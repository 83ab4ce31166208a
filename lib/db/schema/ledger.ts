import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { COLUMN_VALUES, oneOf } from "./enum-checks";
import { sql } from "drizzle-orm";

/**
 * One row per ledger account. `balance` is the sum of the account's postings, kept in the same
 * transaction as each posting so that an overdraft check is one conditional UPDATE (ledger:check
 * verifies it against the postings).
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** null for platform accounts. */
    companyId: bigint({ mode: "number" }),
    kind: text().notNull(),
    balance: bigint({ mode: "number" }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_owner_kind_idx").on(sql`coalesce(${t.companyId}, 0)`, t.kind),
    check("ledger_accounts_kind_check", oneOf(t.kind, COLUMN_VALUES.ledgerAccountKind)),
  ],
);

/** A journal groups postings that sum to zero: one money movement. */
export const ledgerJournals = pgTable(
  "ledger_journals",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: bigint({ mode: "number" }),
    kind: text().notNull(),
    transactionId: bigint({ mode: "number" }),
    cashOutId: bigint({ mode: "number" }),
    description: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // A journal moves a transaction's money or a cash-out's (or neither): partial, as webhook_events'.
    index("ledger_journals_tx_idx").on(t.transactionId).where(sql`${t.transactionId} is not null`),
    index("ledger_journals_cash_out_idx").on(t.cashOutId).where(sql`${t.cashOutId} is not null`),
    check("ledger_journals_kind_check", oneOf(t.kind, COLUMN_VALUES.journalKind)),
  ],
);

export const ledgerPostings = pgTable(
  "ledger_postings",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    journalId: bigint({ mode: "number" }).notNull().references(() => ledgerJournals.id),
    accountId: bigint({ mode: "number" }).notNull().references(() => ledgerAccounts.id),
    /** Statement entry type: payment, fee, refund, chargeback, cash_out, ... */
    entryType: text().notNull(),
    amount: bigint({ mode: "number" }).notNull(),
    balanceAfter: bigint({ mode: "number" }).notNull(),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_postings_account_idx").on(t.accountId, t.id.desc().nullsFirst()),
    index("ledger_postings_journal_idx").on(t.journalId),
    check("ledger_postings_entry_type_check", oneOf(t.entryType, COLUMN_VALUES.entryType)),
  ],
);
