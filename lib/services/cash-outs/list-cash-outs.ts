import { and, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { readPage } from "@/lib/db/prepared";
import { cashOuts } from "@/lib/db/schema";
import { afterCursor, cappedCount, cursorPage, decodeCursor, pagination } from "@/lib/core/pagination";
import type { ListCashOutsQuery } from "@/lib/schemas/money";
import type { CashOutWithPsp } from "./cash-out-view";
import { withPspPayouts } from "./get-cash-out";
import type { ServiceContext } from "../context";
import { toBound } from "@/lib/schemas/query";

/** Newest first, in the order of the index cash_outs_company_idx: a page is read from the index. */
export const CASH_OUTS_NEWEST_FIRST = [desc(cashOuts.createdAt), desc(cashOuts.id)];

/** Newest first, by page + limit or by cursor like the transaction list; a cash-out sent through a PSP with its PSP row. */
export async function listCashOuts(
  ctx: Pick<ServiceContext, "account">,
  q: ListCashOutsQuery,
): Promise<{ rows: CashOutWithPsp[]; pagination: ReturnType<typeof pagination> }> {
  const where: SQL[] = [eq(cashOuts.companyId, ctx.account.id)];
  if (q.status?.length) where.push(inArray(cashOuts.status, q.status));
  if (q.externalRef) where.push(eq(cashOuts.externalRef, q.externalRef));
  if (q.from) where.push(gte(cashOuts.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(cashOuts.createdAt, toBound(q.to)));
  const cond = and(...where);
  // The page and its count in one statement (lib/db/prepared.ts, readPage), the count up to the cap
  // pagination() shows (lib/core/pagination.ts), never all of the account's rows.
  const pageOf = (filter: SQL | undefined, limit: number, offset: number) =>
    readPage(getDb(), cashOuts, { filter, order: CASH_OUTS_NEWEST_FIRST, limit, offset, count: cappedCount(sql`select 1 from ${cashOuts} where ${cond}`) });
  if (q.cursor !== undefined) {
    // Keyset paging as the transaction list does, read from the same index (cash_outs_company_idx).
    const keyset = afterCursor(decodeCursor(q.cursor), cashOuts.createdAt, cashOuts.id);
    const { rows, n } = await pageOf(and(cond, keyset), q.limit + 1, 0);
    const page = cursorPage(rows, q.limit, n, (c) => c);
    return { rows: await withPspPayouts(page.rows), pagination: page.pagination };
  }
  const { rows, n: total } = await pageOf(cond, q.limit, (q.page - 1) * q.limit);
  // Why the page's cash-outs sent through a PSP wait: one more query, only when the page has one.
  return { rows: await withPspPayouts(rows), pagination: pagination(q.page, q.limit, total) };
}
