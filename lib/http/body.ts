import type { z } from "zod";
import { ServiceError, type FieldError } from "@/lib/services/errors";

const MAX_BODY = 1_000_000;

/** Reads a JSON body; malformed JSON is a 400, never a 500. An empty body reads as {}. */
export async function readJson(req: Request): Promise<{ value: unknown; text: string }> {
  const text = await req.text();
  if (text.length > MAX_BODY) throw new ServiceError("validation_error", "The request body is larger than 1 MB.");
  if (text.trim() === "") return { value: {}, text };
  try {
    return { value: JSON.parse(text), text };
  } catch {
    throw new ServiceError("validation_error", "The request body is not valid JSON.", [
      { field: "body", message: "must be a JSON document" },
    ]);
  }
}

export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({
    field: i.path.length ? i.path.map(String).join(".") : "body",
    message: i.message,
  }));
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
