import { and, eq, lt, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { ServiceError } from "./errors";

/** `page`, `limit` and `cursor` of the offset-or-keyset lists, as the API takes them. */
// Every failure of a query number says the same thing in words ("limit=abc" was answered with zod's
// "Invalid input: expected number, received NaN").
const queryInt = (message: string, min: number, max: number) =>
  z.coerce.number({ error: () => message }).int({ error: () => message }).min(min, message).max(max, message);

export const PageQuery = z.object({
  page: queryInt("must be a whole number, 1 or more", 1, Number.MAX_SAFE_INTEGER).default(1),
  limit: queryInt("must be a whole number from 1 to 100", 1, 100).default(20),
  /**
   * Keyset paging (transactions, cash-outs, payment links): "" for the first page, then each page's
   * `pagination.nextCursor` (`page` with it is a 400: lib/http/pagination.ts). Ordered newest first (created_at desc, id desc).
   */
  cursor: z.string().max(200).optional(),
});

export type Pagination = {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  /** Present (true) only when more rows match than TOTAL_CAP: `total` is then TOTAL_CAP, a floor. */
  totalCapped?: true;
  /** Cursor mode only (the request sent `cursor`): the cursor of the next page, null on the last. */
  nextCursor?: string | null;
};

/**
 * Lists count the matching rows only up to this many: counting all of an account's rows on every
 * page costs time that grows with the table. Past the cap, `total` is TOTAL_CAP and `totalCapped`
 * is true; the cursor (keyset) walks any number of rows at the same cost per page.
 */
export const TOTAL_CAP = 1_000;

export function pagination(page: number, limit: number, total: number): Pagination {
  const capped = total > TOTAL_CAP;
  const shown = capped ? TOTAL_CAP : total;
  return { page, limit, total: shown, totalPages: Math.max(1, Math.ceil(shown / limit)), ...(capped ? { totalCapped: true as const } : {}) };
}

/**
 * `count(*)` of a filtered list, stopping at TOTAL_CAP + 1 rows (so the caller knows it passed the
 * cap): `select count(*) from (<rows> limit cap + 1)`.
 */
export function cappedCount(rows: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from (${rows} limit ${TOTAL_CAP + 1}) as capped)`;
}

/** A keyset position in a list ordered newest first: the last row's creation time and id. */
export type Cursor = { createdAt: Date; id: number };

/**
 * The rows after a cursor in a list ordered (created_at desc, id desc): what an index on
 * (company_id, created_at desc, id desc) reads from the position on. Undefined for the first page.
 */
export function afterCursor(cursor: Cursor | null, createdAt: AnyColumn, id: AnyColumn): SQL | undefined {
  if (!cursor) return undefined;
  return or(lt(createdAt, cursor.createdAt), and(eq(createdAt, cursor.createdAt), lt(id, cursor.id)));
}

/** A keyset page: `limit + 1` rows were read; the extra one only says whether there is a next page. */
export function cursorPage<R>(
  rows: R[],
  limit: number,
  total: number,
  positionOf: (row: R) => { createdAt: Date; id: number },
): { rows: R[]; pagination: Pagination } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, pagination: { ...pagination(1, limit, total), nextCursor: more ? encodeCursor(positionOf(page[page.length - 1])) : null } };
}

export function encodeCursor(row: { createdAt: Date; id: number }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

/** The cursor a client sent back; "" starts at the newest row. A cursor we did not make is a 400. */
export function decodeCursor(text: string): Cursor | null {
  if (text === "") return null;
  const [at, id] = Buffer.from(text, "base64url").toString("utf8").split("|");
  // Only the form encodeCursor writes (an ISO time of year 0001 to 9999): any other date JavaScript
  // reads (year +010000, -271821) is one PostgreSQL cannot compare with, a 500 rather than a 400.
  // Year 0000 is a date JavaScript reads and PostgreSQL's timestamps do not have (a 500 too).
  const createdAt = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(at ?? "") ? new Date(at!) : new Date(NaN);
  if (!/^\d+$/.test(id ?? "") || Number.isNaN(createdAt.getTime()) || !Number.isSafeInteger(Number(id))) {
    throw new ServiceError("validation_error", "The query is invalid: cursor is not one this API returned.", [
      { field: "cursor", message: "must be a nextCursor returned by this list, or empty for the first page" },
    ]);
  }
  return { createdAt, id: Number(id) };
}
