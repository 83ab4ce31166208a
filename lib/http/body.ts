import { ServiceError } from "@/lib/services/errors";

/** The largest request body read, in bytes; the stream is not read past it. */
export const MAX_BODY_BYTES = 1_000_000;
/** The deepest nesting of objects and arrays a JSON body may have (real bodies are 3 or 4 deep). */
export const MAX_JSON_DEPTH = 32;

function tooLarge(): ServiceError {
  return new ServiceError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1_000_000} MB.`);
}

// fatal: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD, which would be stored
// as the merchant's data ("Jo\uFFFDo" for a Latin-1 "João"). ignoreBOM: a leading BOM is kept, so the
// JSON parser refuses it as before. Stateless without { stream: true }, so one decoder serves every request.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body's bytes as text, or null when they are not UTF-8. */
export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1; application/json defines no charset parameter): a body that is not is a
 * 400 whatever charset its Content-Type names, rather than a guess at what the client meant.
 */
export function notUtf8(): ServiceError {
  return new ServiceError("validation_error", "The request body is not valid UTF-8: send JSON encoded in UTF-8.", [
    { field: "body", message: "must be JSON encoded in UTF-8" },
  ]);
}

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes: a Content-Length above it is refused
 * before reading, and a body without one (chunked) is read piece by piece and abandoned as soon as it
 * passes the limit, so a large upload never sits whole in memory. 413 `payload_too_large` above it;
 * 400 `validation_error` when the bytes are not UTF-8.
 */
export async function readBodyText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const text = utf8OrNull(Buffer.concat(chunks, size));
  if (text === null) throw notUtf8();
  return text;
}

/**
 * The nesting depth of a JSON text (brackets outside strings), stopping as soon as it passes `max`:
 * checked on the raw text before JSON.parse, so no recursive walk ever sees a deeper document.
 */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Parses JSON text; malformed or too deeply nested JSON is a 400, never a 500. Empty reads as {}. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") return {};
  if (jsonDepthExceeds(text)) {
    throw new ServiceError("validation_error", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, [
      { field: "body", message: `must not nest objects or arrays more than ${MAX_JSON_DEPTH} levels deep` },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError("validation_error", "The request body is not valid JSON.", [
      { field: "body", message: "must be a JSON document" },
    ]);
  }
  return value;
}

/**
 * Every body the API takes is a JSON object: `[]`, `null`, `"x"` or `1` is a 400 in those words, not
 * zod's "expected object, received array".
 */
export function requireJsonObject(value: unknown): void {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return;
  throw new ServiceError("validation_error", "The body must be a JSON object.", [{ field: "body", message: "must be a JSON object" }]);
}

/** Reads a JSON body (UTF-8, at most 1 MB, at most 32 levels deep); malformed JSON is a 400, never a 500. An empty body reads as {}. */
export async function readJson(req: Request): Promise<{ value: unknown; text: string }> {
  const text = await readBodyText(req);
  const value = parseJsonText(text);
  if (text.trim() === "") return { value, text };
  // PostgreSQL text and jsonb cannot hold U+0000 or half a surrogate pair (JSON allows both as
  // \u escapes): stored, they would be a 500. No real field needs them, so they are a 400 here.
  const bad = /\\u(0000|[dD][89a-fA-F])/.test(text) ? unstorableText(value, []) : null;
  if (bad) {
    const field = bad.path || "body";
    throw new ServiceError("validation_error", `The request is invalid: ${field} ${bad.problem}.`, [{ field, message: bad.problem }]);
  }
  return { value, text };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain the NUL character (\\u0000)";
  if (LONE_SURROGATE.test(s)) return "must not contain half of a UTF-16 surrogate pair (an invalid \\ud800-\\udfff escape)";
  return null;
}

/** The first string (or key) PostgreSQL cannot store, with its dotted path ("" for the root). */
function unstorableText(v: unknown, at: string[]): { path: string; problem: string } | null {
  if (typeof v === "string") {
    const problem = textProblem(v);
    return problem ? { path: at.join("."), problem } : null;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = unstorableText(v[i], [...at, String(i)]);
      if (r) return r;
    }
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      const problem = textProblem(k);
      if (problem) return { path: [...at, JSON.stringify(k).slice(1, -1)].join("."), problem: `is a key that ${problem}` };
      const r = unstorableText(x, [...at, k]);
      if (r) return r;
    }
  }
  return null;
}

// Validation helpers live in the kernel, below the services that use them.
export { parseWith, zodFieldErrors } from "@/lib/core/validation";
