import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { CASH_OUT_STATUSES } from "../../domain/cash-out";
import { ENTRY_TYPES, JOURNAL_KINDS, MERCHANT_ACCOUNT_KINDS, PLATFORM_ACCOUNT_KINDS } from "../../domain/ledger";
import { PIX_KEY_TYPES } from "../../domain/pix/keys";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "../../domain/status";

/**
 * The values each status, method and kind column may hold, for the database CHECK constraints in
 * the schema: whatever code path writes a row, a value the table does not know is refused by
 * PostgreSQL itself. The lists come from the domain (one source); a new value is a new migration.
 */
export const COLUMN_VALUES = {
  transactionStatus: TRANSACTION_STATUSES,
  paymentMethod: PAYMENT_METHODS,
  deliveryStatus: ["waiting", "in_transit", "delivered"],
  cashOutStatus: CASH_OUT_STATUSES,
  pixKeyType: PIX_KEY_TYPES,
  checkoutStatus: ["open", "paid", "expired"],
  documentType: ["cpf", "cnpj"],
  ledgerAccountKind: [...MERCHANT_ACCOUNT_KINDS, ...PLATFORM_ACCOUNT_KINDS],
  journalKind: JOURNAL_KINDS,
  entryType: ENTRY_TYPES,
  // "refund": a refund asked of the merchant's PSP reached its end (done or failed), migration 0019.
  webhookType: ["transaction", "cash_out", "refund"],
  // "abandoned": a failing event the merchant gave up (webhook skip).
  deliveryState: ["pending", "succeeded", "failed", "skipped", "abandoned"],
} as const satisfies Record<string, readonly string[]>;

const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** `column in ('a', 'b')` (null passes, as SQL CHECKs do: nullability is the column's own rule). */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map(literal).join(", "))})`;
}
