/**
 * Status, method and kind columns are checked by the database: whatever code path writes a row, a
 * value the table does not know is refused by PostgreSQL (CHECK constraint, SQLSTATE 23514), and
 * every value the domain knows is accepted.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { paidPix } from "../helpers/flows";
import { getDb } from "@/lib/db/client";
import { COLUMN_VALUES } from "@/lib/db/schema/enum-checks";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Checks");
  await paidPix(a, 50_000);
  const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000 } });
  expect(link.status, link.text).toBe(201);
  const cashOut = await call("POST", "/api/v1/cashOut/request", { auth: a.secretKey, body: { amount: 1000, pixKey: "loja@example.com" } });
  expect(cashOut.status, cashOut.text).toBe(201);
  await getDb().execute(sql`update companies set pix_key_type = 'email', pix_key = 'loja@example.com' where id = ${a.companyId}`);
}, 120_000);

const COLUMNS: [table: string, column: string, values: readonly string[]][] = [
  ["transactions", "status", COLUMN_VALUES.transactionStatus],
  ["transactions", "payment_method", COLUMN_VALUES.paymentMethod],
  ["transactions", "delivery_status", COLUMN_VALUES.deliveryStatus],
  ["transaction_status_changes", "from_status", COLUMN_VALUES.transactionStatus],
  ["transaction_status_changes", "to_status", COLUMN_VALUES.transactionStatus],
  ["checkouts", "status", COLUMN_VALUES.checkoutStatus],
  ["cash_outs", "status", COLUMN_VALUES.cashOutStatus],
  ["cash_outs", "pix_key_type", COLUMN_VALUES.pixKeyType],
  ["companies", "document_type", COLUMN_VALUES.documentType],
  ["companies", "pix_key_type", COLUMN_VALUES.pixKeyType],
  ["ledger_accounts", "kind", COLUMN_VALUES.ledgerAccountKind],
  ["ledger_journals", "kind", COLUMN_VALUES.journalKind],
  ["ledger_postings", "entry_type", COLUMN_VALUES.entryType],
  ["webhook_events", "type", COLUMN_VALUES.webhookType],
  ["webhook_events", "delivery_state", COLUMN_VALUES.deliveryState],
];

/** Runs an UPDATE of one row in a transaction that is always rolled back; the database error, if any. */
async function tryWrite(table: string, column: string, value: string): Promise<{ code?: string; message: string } | null> {
  const rollback = new Error("rollback");
  try {
    await getDb().transaction(async (tx) => {
      // Unique indexes (one ledger account per kind and owner) must not be what refuses the value.
      const target = table === "ledger_accounts" ? sql`(select id from ledger_accounts order by id limit 1)` : sql`(select id from ${sql.raw(table)} order by id limit 1)`;
      if (table === "ledger_accounts") await tx.execute(sql`drop index if exists ledger_accounts_owner_kind_idx`);
      await tx.execute(sql`update ${sql.raw(table)} set ${sql.raw(column)} = ${value} where id = ${target}`);
      throw rollback;
    });
  } catch (e) {
    if (e === rollback) return null;
    const err = e as { code?: string; cause?: { code?: string }; message: string };
    return { code: err.code ?? err.cause?.code, message: String(err.message) + String(err.cause ?? "") };
  }
  return null;
}

describe("enum columns have CHECK constraints", () => {
  it.each(COLUMNS)("%s.%s refuses a value it does not know", async (table, column) => {
    const err = await tryWrite(table, column, "bogus_status");
    expect(err, `${table}.${column} accepted an unknown value`).not.toBeNull();
    expect(err!.code === "23514" || /check constraint/i.test(err!.message), err!.message).toBe(true);
  });

  it.each(COLUMNS)("%s.%s accepts every value the domain knows", async (table, column, values) => {
    for (const v of values) expect(await tryWrite(table, column, v), `${table}.${column} = ${v}`).toBeNull();
  });
});
