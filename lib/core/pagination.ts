import { z } from "zod";

/** `page` and `limit` of every list, as the API takes them. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1, "must be 1 or more").default(1),
  limit: z.coerce.number().int().min(1, "must be from 1 to 100").max(100, "must be from 1 to 100").default(20),
});

export type Pagination = { page: number; limit: number; total: number; totalPages: number };

export function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) };
}
