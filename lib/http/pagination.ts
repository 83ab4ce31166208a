import type { z } from "zod";
import { ServiceError, type FieldError } from "@/lib/services/errors";
import { isCommaList } from "@/lib/schemas/query";

// Page parameters and the page envelope live in the kernel, below the services that use them.
export {
  PageQuery,
  afterCursor,
  cursorPage,
  pagination,
  cappedCount,
  decodeCursor,
  encodeCursor,
  TOTAL_CAP,
  type Cursor,
  type Pagination,
} from "@/lib/core/pagination";

/** What a list says of a parameter it does not take, when there is more to say than "unknown". */
export type QueryHints = Record<string, string>;

/** Names clients use for `limit` (per page) in other APIs. */
const LIMIT_ALIASES = ["per_page", "perpage", "page_size", "pagesize", "size", "pagelimit", "page_limit"];

const squash = (name: string) => name.toLowerCase().replace(/[_\-\s]/g, "");

/** The parameter a misspelt one meant (case, snake_case, kebab-case, another API's name for limit), if any. */
function meant(name: string, known: readonly string[]): string | null {
  const s = squash(name);
  const same = known.find((k) => squash(k) === s);
  if (same) return same;
  if (known.includes("limit") && LIMIT_ALIASES.some((a) => squash(a) === s)) return "limit";
  return null;
}

function unknownParameter(sent: string, name: string, known: readonly string[], hints: QueryHints): string {
  if (Object.hasOwn(hints, name)) return hints[name];
  const guess = meant(name, known);
  if (guess) return `is not a parameter of this list; did you mean ${guess}?`;
  if (name === "_") {
    return "is not a parameter of this list (a cache-buster is not needed: list answers carry Cache-Control: no-store)";
  }
  return `is not a parameter of this list; its parameters are: ${known.join(", ")}`;
}

/** How many parameters in trouble a 400 names (the message gives the count of all). */
export const MAX_QUERY_ERRORS = 20;

/** `x[]` and `x[0]` (PHP's http_build_query, qs, jQuery.param): the name and whether it had brackets. */
const BRACKETS = /^(.+?)\[\d*\]$/;

/**
 * A list's query string as a plain object for its zod schema, or a 400 `validation_error` naming each
 * parameter in trouble; nothing is ever silently ignored:
 * - a list-valued filter (a comma list: status, paymentMethod, type, account) merges every form it
 *   comes in: `x=a,b`, `x=a&x=b`, `x[]=a&x[]=b`, `x[0]=a&x[1]=b`, into `a,b`;
 * - a single-valued parameter (page, limit, cursor, from, ...) sent twice with different values is
 *   refused (which one was meant?); the same value twice is that value; brackets on it are refused;
 * - a parameter the list does not take is refused, naming the one meant when the name differs only by
 *   case or by `_`/`-` (`payment_method`, `paymentmethod`: paymentMethod; `per_page`: limit).
 * A NUL (%00) is refused too: no filter needs it and PostgreSQL cannot compare text holding it (it
 * would be a 500).
 */
export function queryObject(url: URL, schema: z.ZodObject, hints: QueryHints = {}): Record<string, string> {
  const known = Object.keys(schema.shape);
  const lists = new Set(known.filter((k) => isCommaList(schema.shape[k] as z.ZodType)));
  const values = new Map<string, string[]>();
  const errors: FieldError[] = [];
  const named = new Set<string>();
  // Each parameter in trouble once (a Set: thousands of names cost no more than one pass).
  const refuse = (field: string, message: string) => {
    if (named.has(field)) return;
    named.add(field);
    errors.push({ field, message });
  };
  url.searchParams.forEach((v, k) => {
    if (v.includes("\u0000") || k.includes("\u0000")) {
      const field = k.replace(/\u0000/g, "%00");
      throw new ServiceError("validation_error", `The query is invalid: ${field} contains a NUL character (%00).`, [
        { field, message: "must not contain the NUL character (%00)" },
      ]);
    }
    const bracket = BRACKETS.exec(k);
    const name = bracket ? bracket[1] : k;
    if (!known.includes(name)) {
      refuse(k, unknownParameter(k, name, known, hints));
      return;
    }
    if (bracket && !lists.has(name)) {
      refuse(k, `takes one value: send ${name}=<value> once, without brackets`);
      return;
    }
    values.set(name, [...(values.get(name) ?? []), v]);
  });
  const out: Record<string, string> = {};
  for (const [name, vs] of values) {
    if (lists.has(name)) out[name] = vs.join(",");
    else if (new Set(vs).size > 1) refuse(name, `takes one value but was sent ${vs.length} times with different values`);
    else out[name] = vs[0];
  }
  // The two ways of paging are one or the other: a page number next to a cursor would be ignored.
  if (Object.hasOwn(out, "cursor") && Object.hasOwn(out, "page")) {
    refuse("page", "cannot be sent with cursor: page by cursor (each page's pagination.nextCursor) or by page number, not both");
  }
  if (errors.length) {
    const first = errors[0];
    const sentence = `${first.field} ${first.message}`;
    const message =
      errors.length === 1
        ? `The query is invalid: ${sentence}${/[.?]$/.test(sentence) ? "" : "."}`
        : errors.length > MAX_QUERY_ERRORS
          ? `The query is invalid: ${errors.length} parameters have problems; the first ${MAX_QUERY_ERRORS} are listed.`
          : `The query is invalid: ${errors.length} parameters have problems.`;
    // At most MAX_QUERY_ERRORS named: a query of thousands of made-up names gets a small answer.
    throw new ServiceError("validation_error", message, errors.slice(0, MAX_QUERY_ERRORS));
  }
  return out;
}
