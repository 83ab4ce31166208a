import { z } from "zod";

/** `?status=paid,refused`: a comma list of allowed values, any case. */
export const commaList = <T extends string>(allowed: readonly T[]) =>
  z
    .string()
    .transform((s) => s.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean))
    .refine((xs) => xs.length > 0 && xs.every((x) => (allowed as readonly string[]).includes(x)), {
      message: `must be a comma-separated list of: ${allowed.join(", ")}`,
    })
    .transform((xs) => xs as T[]);

export const dateParam = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: "must be an ISO 8601 date or date-time" })
  .meta({ description: "ISO 8601 date or date-time (a date-only `to` includes that whole day, UTC)" });

/** Upper bound of a `to` filter: a date-only value includes that whole day (UTC). */
export function toBound(s: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T23:59:59.999Z`) : new Date(s);
}
