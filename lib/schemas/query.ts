import { z } from "zod";
import { MAX_YEAR, MIN_YEAR, parseIsoDate } from "@/lib/domain/iso-date";

/** The schemas commaList made: how the query reader (lib/http/pagination.ts) knows a list-valued filter. */
const COMMA_LISTS = new WeakSet<object>();

/**
 * `?status=paid,refused`: a comma list of allowed values, any case. The query reader merges the other
 * forms of a list into this one first: `status=paid&status=refused`, `status[]=paid`, `status[0]=paid`.
 */
export const commaList = <T extends string>(allowed: readonly T[]) => {
  const schema = z
    .string()
    .transform((s) => s.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean))
    .refine((xs) => xs.length > 0 && xs.every((x) => (allowed as readonly string[]).includes(x)), {
      message: `must be a comma-separated list of: ${allowed.join(", ")}`,
    })
    .transform((xs) => xs as T[]);
  COMMA_LISTS.add(schema);
  return schema;
};

/** Whether a query field is a commaList (also behind .optional(), .default() and .meta()). */
export function isCommaList(field: z.ZodType): boolean {
  let s: unknown = field;
  for (let depth = 0; depth < 8 && s; depth++) {
    if (COMMA_LISTS.has(s as object)) return true;
    s = (s as { _zod?: { def?: { innerType?: unknown } } })._zod?.def?.innerType;
  }
  return false;
}

const DATE_MESSAGE = `must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z), a real calendar day in years ${MIN_YEAR} to ${MAX_YEAR}`;

/**
 * An ISO 8601 date or date-time checked strictly (lib/domain/iso-date.ts) and handed on normalised:
 * a date stays `YYYY-MM-DD`, a date-time becomes its UTC instant (`...Z`), so `new Date(value)` and
 * `toBound(value)` read it the one way. Anything else is a 400 naming the field, never a 500 from the
 * database.
 */
export const isoDateString = (message = DATE_MESSAGE) =>
  z.string().transform((s, ctx) => {
    const parsed = parseIsoDate(s);
    if (!parsed) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return parsed.kind === "date" ? parsed.day : parsed.instant.toISOString();
  });

export const dateParam = isoDateString().meta({
  description: "ISO 8601 date or date-time, years 1 to 9999; a date-time without offset is UTC (a date-only `to` includes that whole day, UTC)",
});

/** Upper bound of a `to` filter: a date-only value includes that whole day (UTC). */
export function toBound(s: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T23:59:59.999Z`) : new Date(s);
}

/** `?traceable=true`: a yes/no filter, as query strings write it (true/false, 1/0, any case). */
export const queryBoolean = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .refine((s) => ["true", "false", "1", "0"].includes(s), { message: "must be true or false" })
  .transform((s) => s === "true" || s === "1");

/** `?id=1001` or `?id=1001,1002`: ids as whole numbers (at most 100). */
export const idList = z
  .string()
  .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
  .refine((xs) => xs.length > 0 && xs.length <= 100 && xs.every((x) => /^[1-9]\d{0,14}$/.test(x)), {
    message: "must be an id, or up to 100 ids separated by commas",
  })
  .transform((xs) => xs.map(Number));
