import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkouts } from "@/lib/db/schema";
import { afterCursor, cappedCount, cursorPage, decodeCursor, pagination } from "@/lib/core/pagination";
import type { ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import type { ServiceContext } from "../context";
import { checkoutStatusSql, type CheckoutWithStatus } from "./checkout-view";
import { checkoutSelection } from "./get-checkout";

/** Newest first, in the order of the index checkouts_company_idx: a page is read from the index. */
export const CHECKOUTS_NEWEST_FIRST = [desc(checkouts.createdAt), desc(checkouts.id)];

/** The account's payment links, newest first (API and dashboard), by page + limit or by cursor. */
export async function listCheckouts(
  ctx: Pick<ServiceContext, "account" | "now">,
  q: ListCheckoutsQuery,
): Promise<{ rows: CheckoutWithStatus[]; pagination: ReturnType<typeof pagination> }> {
  const where: SQL[] = [eq(checkouts.companyId, ctx.account.id)];
  if (q.externalRef) where.push(eq(checkouts.externalRef, q.externalRef));
  if (q.status?.length) {
    where.push(sql`(${checkoutStatusSql(ctx.now)}) in (${sql.join(q.status.map((s) => sql`${s}`), sql`, `)})`);
  }
  const cond = and(...where);
  const db = getDb();
  const cursor = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
  const keyset = cursor === undefined ? undefined : afterCursor(cursor, checkouts.createdAt, checkouts.id);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(checkoutSelection(ctx.now))
      .from(checkouts)
      .where(and(cond, keyset))
      .orderBy(...CHECKOUTS_NEWEST_FIRST)
      // Keyset paging (as the transaction list, from the index checkouts_company_idx): one row more
      // than the page says whether there is a next one.
      .limit(cursor === undefined ? q.limit : q.limit + 1)
      .offset(cursor === undefined ? (q.page - 1) * q.limit : 0),
    // Counted up to the cap pagination() shows (lib/core/pagination.ts), never all of the account's rows.
    db.select({ total: cappedCount(sql`select 1 from ${checkouts} where ${cond}`) }).from(sql`(select 1) as one`),
  ]);
  if (cursor !== undefined) {
    return cursorPage(rows, q.limit, Number(total), (r) => r.row);
  }
  return { rows, pagination: pagination(q.page, q.limit, Number(total)) };
}
