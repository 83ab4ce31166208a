/**
 * What the operation files of ./ are made of: a tag of the reference with its operations, and the
 * small pieces several aggregates share (a numeric id in the path, the page parameters).
 */
import { z } from "zod";
import type { ApiOperation } from "../types";

export type ApiTag = { name: string; description: string };

/** One tag of the reference and its operations, in the order the reference lists them. */
export type ApiGroup = { tag: ApiTag; operations: ApiOperation[] };

export function apiGroup(tag: ApiTag, operations: Omit<ApiOperation, "tag">[]): ApiGroup {
  return { tag, operations: operations.map((op) => ({ ...op, tag: tag.name })) };
}

/** A path parameter holding a numeric id. */
export function numericIdParams<K extends string>(name: K, description: string, example: string) {
  return z.object({ [name]: z.string().regex(/^\d+$/).meta({ description, example }) } as Record<K, z.ZodString>);
}

/** Descriptions of the page parameters of the lists paged by `page` or by `cursor` (transactions, cash-outs, payment links). */
export const PAGE_PARAM_DOCS = {
  page: "Page number, from 1",
  limit: "Rows per page, 1 to 100 (default 20)",
  cursor:
    "Keyset paging (recommended): empty for the first page, then the previous page's pagination.nextCursor until it is null (pagination.page is 1; page sent with cursor is a 400). A cursor not returned by this list is a 400",
};

/**
 * What every list says of its query string (lib/http/pagination.ts, queryObject), appended to each
 * list's description.
 */
export const LIST_QUERY_RULES =
  " A list-valued filter (a comma list) may also be repeated (`status=paid&status=refused`) or bracketed (`status[]=paid`, `status[0]=paid`): the values are merged. A single-valued parameter sent twice with different values, or a parameter this list does not take (including a cache-buster such as `_`), is a 400 `validation_error` naming it (for a misspelt one, `payment_method`, the parameter meant).";
