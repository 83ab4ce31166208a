import { and, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { readPage } from "@/lib/db/prepared";
import { cashOuts } from "@/lib/db/schema";
import { cappedCount, pagination } from "@/lib/core/pagination";
import type { ListCashOutsQuery } from "@/lib/schemas/money";
import type { CashOutWithPsp } from "./cash-out-view";
import { withPspPayouts } from "./get-cash-out";
import type { ServiceContext } from "../context";
import { toBound } from "@/lib/schemas/query";

/** Newest first, in the order of the index cash_outs_company_idx: a page is read from the index. */
export const CASH_OUTS_NEWEST_FIRST = [desc(cashOuts.createdAt), desc(cashOuts.id)];

/** Newest first, page + limit like the transaction list; a cash-out sent through a PSP with its PSP row. */
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
  const { rows, n: total } = await readPage(getDb(), cashOuts, {
    filter: cond,
    order: CASH_OUTS_NEWEST_FIRST,
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
    count: cappedCount(sql`select 1 from ${cashOuts} where ${cond}`),
  });
  // Why the page's cash-outs sent through a PSP wait: one more query, only when the page has one.
  return { rows: await withPspPayouts(rows), pagination: pagination(q.page, q.limit, total) };
}
