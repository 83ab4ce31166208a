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

/** Descriptions of the page parameters of the offset-paginated lists. */
export const PAGE_PARAM_DOCS = { page: "Page number, from 1", limit: "Rows per page, 1 to 100 (default 20)" };
