import { ServiceError } from "@/lib/services/errors";

const MAX_BODY = 1_000_000;

/** Reads a JSON body; malformed JSON is a 400, never a 500. An empty body reads as {}. */
export async function readJson(req: Request): Promise<{ value: unknown; text: string }> {
  const text = await req.text();
  if (text.length > MAX_BODY) throw new ServiceError("validation_error", "The request body is larger than 1 MB.");
  if (text.trim() === "") return { value: {}, text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError("validation_error", "The request body is not valid JSON.", [
      { field: "body", message: "must be a JSON document" },
    ]);
  }
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
