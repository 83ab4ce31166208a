import { z } from "zod";
import { ServiceError, type FieldError } from "./errors";

/** zod issues as the field errors of a 400: dotted paths, "body" for the document itself. */
export function zodFieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const i of error.issues) {
    const e = { field: i.path.length ? i.path.map(String).join(".") : "body", message: i.message };
    // Two checks of one field that fail with the same words (a number both fractional and too large)
    // are one error to the client, not two.
    const key = `${e.field}\u0000${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

/** Parses with a zod schema; failures become one validation_error listing every field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "request"): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    const errors = zodFieldErrors(r.error);
    const first = errors[0];
    const message =
      errors.length === 1 && first
        ? `The ${what} is invalid: ${first.field} ${first.message}.`
        : `The ${what} is invalid: ${errors.length} fields have problems.`;
    throw new ServiceError("validation_error", message, errors);
  }
  return r.data;
}

/** An optional free-text field of a form: trimmed, at most `max` characters, empty or absent → null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must have at most ${max} characters`)
    .optional()
    .transform((v) => v || null);
