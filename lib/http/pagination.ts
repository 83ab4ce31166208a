import { ServiceError } from "@/lib/services/errors";

// Page parameters and the page envelope live in the kernel, below the services that use them.
export {
  PageQuery,
  pagination,
  cappedCount,
  decodeCursor,
  encodeCursor,
  TOTAL_CAP,
  type Cursor,
  type Pagination,
} from "@/lib/core/pagination";

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
