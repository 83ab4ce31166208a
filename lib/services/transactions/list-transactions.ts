import { and, desc, eq, gte, inArray, isNotNull, lte, not, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { readPage } from "@/lib/db/prepared";
import { transactions } from "@/lib/db/schema";
import { TRANSACTION_STATUSES } from "@/lib/domain/status";
import { normalizeDocument } from "@/lib/domain/documents";
import { PageQuery, afterCursor, cappedCount, cursorPage, decodeCursor, pagination } from "@/lib/core/pagination";
import { commaList, dateParam, toBound } from "@/lib/schemas/query";
import type { ServiceContext } from "../context";
import type { TransactionRow } from "./transaction-view";

export const ListTransactionsQuery = PageQuery.extend({
  status: commaList(TRANSACTION_STATUSES).optional(),
  paymentMethod: commaList(["pix", "boleto", "credit_card"] as const).optional(),
  from: dateParam.optional(),
  to: dateParam.optional(),
  externalRef: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  documentNumber: z.string().max(40).optional(),
  /** Dashboard search: name, e-mail, document or externalRef. */
  q: z.string().max(200).optional(),
});
export type ListTransactionsQuery = z.output<typeof ListTransactionsQuery>;

/**
 * Newest first, in the order of the index transactions_company_created_idx (company_id, created_at
 * DESC, id DESC, nulls first as `DESC` means): a page is read from the index, never sorted.
 */
export const TRANSACTIONS_NEWEST_FIRST = [desc(transactions.createdAt), desc(transactions.id)];

/**
 * The dashboard's split of `pending` (the API keeps one status, as the contract says): `live`, a
 * charge that can still be paid; `expired`, a PIX or boleto past its expiry that nobody paid
 * (isPendingPastExpiry, lib/domain/sandbox-offer.ts: `expires_at <= now`), shown as "Expirado".
 */
export type PendingExpiry = { pendingExpiry?: "live" | "expired"; now?: Date };

export async function listTransactions(
  ctx: Pick<ServiceContext, "account">,
  q: ListTransactionsQuery,
  opts: PendingExpiry = {},
): Promise<{ rows: TransactionRow[]; pagination: ReturnType<typeof pagination> }> {
  const where: SQL[] = [eq(transactions.companyId, ctx.account.id)];
  if (opts.pendingExpiry) {
    // Through the column (lte), so the instant is bound as a timestamp on both drivers.
    const past = and(isNotNull(transactions.expiresAt), lte(transactions.expiresAt, opts.now ?? new Date()))!;
    where.push(eq(transactions.status, "pending"), opts.pendingExpiry === "expired" ? past : not(past));
  }
  // `approved` is how the family (and a card's webhook) names a payment; transactions read `paid`.
  if (q.status?.length) where.push(inArray(transactions.status, [...new Set(q.status.map((s) => (s === "approved" ? "paid" : s)))]));
  if (q.paymentMethod?.length) where.push(inArray(transactions.paymentMethod, q.paymentMethod));
  if (q.from) where.push(gte(transactions.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(transactions.createdAt, toBound(q.to)));
  if (q.externalRef) where.push(eq(transactions.externalRef, q.externalRef));
  if (q.email) where.push(sql`lower(${transactions.customerEmail}) = ${q.email.trim().toLowerCase()}`);
  if (q.documentNumber) where.push(eq(transactions.customerDocument, normalizeDocument(q.documentNumber)));
  if (q.q?.trim()) {
    const term = `%${q.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // LIKE's wildcards in the term are matched as themselves, in the document's part too.
    const doc = normalizeDocument(q.q).replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(
      sql`(lower(${transactions.customer}->>'name') like ${term} or lower(${transactions.customerEmail}) like ${term}
        or lower(coalesce(${transactions.externalRef}, '')) like ${term}
        or (${doc} <> '' and ${transactions.customerDocument} like ${`%${doc}%`})
        or ${transactions.id}::text = ${q.q.trim()})`,
    );
  }
  const db = getDb();
  const cond = and(...where);
  // The total is counted up to the cap (lib/core/pagination.ts), not over all of the account's rows,
  // and in the same statement as the page (an uncorrelated subquery: counted once per statement).
  const total = cappedCount(sql`select 1 from ${transactions} where ${cond}`);
  // One statement per page, prepared on the server per connection and text (lib/db/prepared.ts,
  // readPage): the text changes only with the filters given, every value is bound, the select list is
  // made once per table and the rows are decoded by the table's decoder.
  const pageOf = (filter: SQL | undefined, limit: number, offset: number) =>
    readPage(db, transactions, { filter, order: TRANSACTIONS_NEWEST_FIRST, limit, offset, count: total });
  if (q.cursor !== undefined) {
    const keyset = afterCursor(decodeCursor(q.cursor), transactions.createdAt, transactions.id);
    const { rows, n } = await pageOf(and(cond, keyset), q.limit + 1, 0);
    return cursorPage(rows, q.limit, n, (t) => t);
  }
  const { rows, n } = await pageOf(cond, q.limit, (q.page - 1) * q.limit);
  return { rows, pagination: pagination(q.page, q.limit, n) };
}
