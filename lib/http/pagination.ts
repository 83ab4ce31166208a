import { z } from "zod";
import { ServiceError } from "@/lib/services/errors";

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1, "must be 1 or more").default(1),
  limit: z.coerce.number().int().min(1, "must be from 1 to 100").max(100, "must be from 1 to 100").default(20),
});

export type Pagination = { page: number; limit: number; total: number; totalPages: number };

export function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) };
}

/**
 * URLSearchParams as a plain object (last value wins), for zod. A NUL (%00) is refused here: no
 * filter needs it and PostgreSQL cannot compare text holding it (it would be a 500).
 */
export function queryObject(url: URL): Record<string, string> {
  const o: Record<string, string> = {};
  url.searchParams.forEach((v, k) => {
    if (v.includes("\u0000") || k.includes("\u0000")) {
      const field = k.replace(/\u0000/g, "%00");
      throw new ServiceError("validation_error", `The query is invalid: ${field} contains a NUL character (%00).`, [
        { field, message: "must not contain the NUL character (%00)" },
      ]);
    }
    o[k] = v;
  });
  return o;
}
