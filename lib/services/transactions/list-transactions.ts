import { and, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { TRANSACTION_STATUSES } from "@/lib/domain/status";
import { normalizeDocument } from "@/lib/domain/documents";
import { PageQuery, pagination } from "@/lib/core/pagination";
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

export async function listTransactions(
  ctx: Pick<ServiceContext, "account">,
  q: ListTransactionsQuery,
): Promise<{ rows: TransactionRow[]; pagination: ReturnType<typeof pagination> }> {
  const where: SQL[] = [eq(transactions.companyId, ctx.account.id)];
  if (q.status?.length) where.push(inArray(transactions.status, q.status));
  if (q.paymentMethod?.length) where.push(inArray(transactions.paymentMethod, q.paymentMethod));
  if (q.from) where.push(gte(transactions.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(transactions.createdAt, toBound(q.to)));
  if (q.externalRef) where.push(eq(transactions.externalRef, q.externalRef));
  if (q.email) where.push(sql`lower(${transactions.customerEmail}) = ${q.email.trim().toLowerCase()}`);
  if (q.documentNumber) where.push(eq(transactions.customerDocument, normalizeDocument(q.documentNumber)));
  if (q.q?.trim()) {
    const term = `%${q.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const doc = normalizeDocument(q.q);
    where.push(
      sql`(lower(${transactions.customer}->>'name') like ${term} or lower(${transactions.customerEmail}) like ${term}
        or lower(coalesce(${transactions.externalRef}, '')) like ${term}
        or (${doc} <> '' and ${transactions.customerDocument} like ${`%${doc}%`})
        or ${transactions.id}::text = ${q.q.trim()})`,
    );
  }
  const db = getDb();
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(transactions)
      .where(cond)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(transactions).where(cond),
  ]);
  return { rows, pagination: pagination(q.page, q.limit, Number(total)) };
}
