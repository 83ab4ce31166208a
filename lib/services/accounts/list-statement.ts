import { and, desc, eq, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings } from "@/lib/db/schema";
import type { EntryType } from "@/lib/domain/ledger";
import { STATEMENT_ACCOUNTS, type StatementAccount, type StatementQuery } from "@/lib/schemas/money";
import type { ServiceContext } from "../context";
import { validation } from "../errors";
import { toBound } from "@/lib/schemas/query";

/**
 * The statement is the merchant's postings on two ledger accounts:
 * - `available`: what can be cashed out. PIX and boleto payments and their fees, refunds,
 *   chargebacks, cash-outs and their fees and reversals, and card funds arriving on settlement.
 * - `waiting_funds`: card sales until they settle (payment, fee, refunds and chargebacks taken from
 *   the sale's waiting share, and the settlement that moves it out).
 * Every entry names its `account`, and `balanceAfter` is that account's balance after the entry,
 * so each account's entries chain (balanceAfter - amount = the previous balanceAfter of the same
 * account). A card payment shows up when it happens (in waiting_funds) and again when its money
 * becomes available (two `settlement` entries: - in waiting_funds, + in available). `?account=available`
 * gives the cash view alone. The `reserved` account (cash-outs and PSP refunds in flight) is not
 * listed: its moves mirror the cash_out and refund entries already shown on available.
 */
export type StatementEntry = {
  id: number;
  type: EntryType;
  account: StatementAccount;
  /** Signed centavos: credits positive, debits negative. */
  amount: number;
  balanceAfter: number;
  transactionId: number | null;
  cashOutId: number | null;
  description: string;
  createdAt: string;
};

export type StatementPage = { data: StatementEntry[]; nextCursor: string | null };

// Opaque to clients; today the id of the last entry returned (entries are newest first by id).
const CURSOR_PREFIX = "st1:";

export function encodeStatementCursor(lastId: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${lastId}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const id = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    throw validation("The query is invalid: cursor is not a cursor this API returned.", [
      { field: "cursor", message: "must be the nextCursor of a previous page" },
    ]);
  }
  return id;
}

function describe(type: EntryType, journal: { description: string; transactionId: number | null; cashOutId: number | null }) {
  if (type === "fee" && journal.transactionId !== null) return `Fee on transaction #${journal.transactionId}`;
  if (type === "cash_out_fee" && journal.cashOutId !== null) return `Fee on PIX cash-out #${journal.cashOutId}`;
  return journal.description;
}

/** Newest first; `nextCursor` is null on the last page. Also used by the dashboard (and its CSV export). */
export async function listStatement(
  ctx: Pick<ServiceContext, "account">,
  q: StatementQuery,
  db: Queryable = getDb(),
): Promise<StatementPage> {
  const kinds = q.account?.length ? q.account : [...STATEMENT_ACCOUNTS];
  const accounts = await db
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.companyId, ctx.account.id), inArray(ledgerAccounts.kind, kinds)));
  if (accounts.length === 0) return { data: [], nextCursor: null };
  const kindOf = new Map(accounts.map((a) => [a.id, a.kind as StatementAccount]));

  const where: SQL[] = [inArray(ledgerPostings.accountId, accounts.map((a) => a.id))];
  if (q.cursor) where.push(lt(ledgerPostings.id, decodeCursor(q.cursor)));
  if (q.type?.length) where.push(inArray(ledgerPostings.entryType, q.type));
  if (q.from) where.push(gte(ledgerPostings.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(ledgerPostings.createdAt, toBound(q.to)));

  const rows = await db
    .select({
      id: ledgerPostings.id,
      accountId: ledgerPostings.accountId,
      entryType: ledgerPostings.entryType,
      amount: ledgerPostings.amount,
      balanceAfter: ledgerPostings.balanceAfter,
      createdAt: ledgerPostings.createdAt,
      transactionId: ledgerJournals.transactionId,
      cashOutId: ledgerJournals.cashOutId,
      description: ledgerJournals.description,
    })
    .from(ledgerPostings)
    .innerJoin(ledgerJournals, eq(ledgerJournals.id, ledgerPostings.journalId))
    .where(and(...where))
    .orderBy(desc(ledgerPostings.id))
    .limit(q.limit + 1);

  const page = rows.slice(0, q.limit);
  const data = page.map((r): StatementEntry => {
    const type = r.entryType as EntryType;
    return {
      id: r.id,
      type,
      account: kindOf.get(r.accountId)!,
      amount: Number(r.amount),
      balanceAfter: Number(r.balanceAfter),
      transactionId: r.transactionId,
      cashOutId: r.cashOutId,
      description: describe(type, r),
      createdAt: r.createdAt.toISOString(),
    };
  });
  const last = page[page.length - 1];
  return { data, nextCursor: rows.length > q.limit && last ? encodeStatementCursor(last.id) : null };
}
