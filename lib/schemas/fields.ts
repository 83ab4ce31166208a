import { z } from "zod";

/**
 * Fields every request schema shares, declared once: an amount in centavos, an http(s) URL, a
 * resource id. The request schemas of transactions, payment links and money compose them.
 */

/** The largest amount of one charge, payment link or cash-out: R$ 1.000.000,00. */
export const MAX_AMOUNT = 100_000_000;

/** Longest URL accepted anywhere (postback, return URLs): what browsers and proxies reliably carry. */
export const MAX_URL_LENGTH = 2048;

/** "is required" when the field is absent, otherwise "must be <what>". */
export const need = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`),
});

/**
 * An integer number of centavos from `min` (default 1) to `max` (default MAX_AMOUNT). With
 * `digitStrings`, a string of digits ("1500") is read as the number (the money endpoints accept both).
 */
/** What a fractional amount, or a string with anything but digits ("12,50", "12.50"), is told. */
export const INTEGER_CENTAVOS = "must be an integer number of centavos (R$ 10,00 is 1000)";

export function centavos(what: string, opts: { min?: number; max?: number; digitStrings?: boolean; nullMessage?: string } = {}) {
  const min = opts.min ?? 1;
  const max = opts.max ?? MAX_AMOUNT;
  const expected = {
    error: (issue: { input?: unknown }) => {
      const v = issue.input;
      if (v === undefined) return "is required";
      if (v === null && opts.nullMessage) return opts.nullMessage;
      // "12,50" or "12.50": reais written as text; the same words as 12.5 gets.
      if (typeof v === "string" && !/^\s*\d+\s*$/.test(v)) return INTEGER_CENTAVOS;
      if (typeof v === "string") return "must be a JSON number of centavos, not a string (1000, not \"1000\")";
      // A number reaches here only by failing the integer check (the range's checks do not stop the
      // number branch of the union below): 12.5, or one past 2^53.
      if (typeof v === "number") return INTEGER_CENTAVOS;
      return "must be an integer number of centavos";
    },
  };
  const amount = z
    .number(expected)
    .int(INTEGER_CENTAVOS)
    .min(min, min === 0 ? "must not be negative" : min === 1 ? "must be at least 1 centavo" : `must be at least ${min}`)
    .max(max, max === MAX_AMOUNT ? `must be at most ${MAX_AMOUNT} (R$ 1.000.000,00)` : `must be at most ${max}`);
  if (!opts.digitStrings) return amount.meta({ description: `${what}, in centavos` });
  // The number branch is `amount` itself, not a bare z.number(): the document (which shows a request's
  // input side, before the transform and the pipe) then states the integer type and the range the
  // server applies. A number that fails only them keeps their own words (the union reports the issues
  // of the one branch whose type matched).
  return z
    .union([amount, z.string().trim().regex(/^\d+$/, INTEGER_CENTAVOS)], expected)
    .transform(Number)
    .pipe(amount)
    .meta({ description: `${what}, in centavos` });
}

/**
 * Optional free text of at most `max` characters (after trimming), a number read as its text; empty
 * or absent is null. The document shows a request's input side, where the transform hides the pipe's
 * limit, so the limit is stated for it too (`maxLength`): one number for the check and the document.
 */
export const optionalText = (max: number) =>
  z
    .union([z.string(), z.number()], need("a string"))
    .transform((v) => String(v).trim())
    .pipe(z.string().max(max, `must have at most ${max} characters`))
    .nullish()
    .transform((v) => (v ? v : null))
    .meta({ maxLength: max });

/** An absolute http:// or https:// URL of at most MAX_URL_LENGTH characters. */
export const httpUrl = z
  .string(need("an http:// or https:// URL"))
  .trim()
  .max(MAX_URL_LENGTH, `must have at most ${MAX_URL_LENGTH} characters`)
  .refine((u) => /^https?:\/\/[^/\s]+/i.test(u) && URL.canParse(u), { message: "must be an absolute http:// or https:// URL" });
