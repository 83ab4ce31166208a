import { and, eq, isNull } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { ledgerAccounts } from "@/lib/db/schema";
import { MERCHANT_ACCOUNT_KINDS, PLATFORM_ACCOUNT_KINDS, type MerchantAccountKind, type PlatformAccountKind } from "@/lib/domain/ledger";

/** Creates the merchant's ledger accounts (and the platform's, the first time). Idempotent. */
export async function ensureLedgerAccounts(db: Queryable, companyId: number): Promise<void> {
  const rows = [
    ...PLATFORM_ACCOUNT_KINDS.map((kind) => ({ companyId: null, kind })),
    ...MERCHANT_ACCOUNT_KINDS.map((kind) => ({ companyId, kind })),
  ];
  // The only unique index is (coalesce(company_id, 0), kind): an existing account is skipped.
  await db.insert(ledgerAccounts).values(rows).onConflictDoNothing();
}

export async function merchantAccountId(db: Queryable, companyId: number, kind: MerchantAccountKind): Promise<number> {
  const r = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.companyId, companyId), eq(ledgerAccounts.kind, kind)))
    .limit(1);
  if (r[0]) return r[0].id;
  await ensureLedgerAccounts(db, companyId);
  return merchantAccountId(db, companyId, kind);
}

export async function platformAccountId(db: Queryable, kind: PlatformAccountKind): Promise<number> {
  const r = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(isNull(ledgerAccounts.companyId), eq(ledgerAccounts.kind, kind)))
    .limit(1);
  if (!r[0]) throw new Error(`Platform ledger account ${kind} is missing: no merchant account was ever created.`);
  return r[0].id;
}
