/**
 * Arbitraries and invariants for the fuzz tests: mutations of valid bodies (wrong types, huge and
 * negative numbers, NaN-ish strings, unicode, nested junk, missing and extra fields), junk headers
 * and paths; and the checks every answer must pass (no 5xx, a well-formed error body whose status
 * matches the code table).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import type { CallResult } from "./app";

/** Runs per property: bounded so the suite stays fast; FUZZ_RUNS raises it for a long session. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

function nested(depth: number, leaf: unknown, array: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = array ? [v] : { a: v };
  return v;
}

export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0,
    0.5,
    1e-7,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 63,
    -(2 ** 31),
    "",
    " ",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "0x10",
    "١٢٣",
    "１２３",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "💸🇧🇷",
    "ação ñ 中文 עברית",
    "<script>alert(1)</script>",
    "'; drop table transactions; --",
    "../../etc/passwd",
    "a".repeat(20_000),
    [],
    {},
    { $gt: "" },
    [null],
  ),
  fc.integer(),
  fc.double(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.tuple(fc.integer({ min: 20, max: 200 }), fc.boolean()).map(([d, arr]) => nested(d, "x", arr)),
);

/** Numbers past every field's range: huge, tiny, unsafe integers, negative zero. */
export const outOfRangeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(1e21, -1e21, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 63, 2 ** 64, 2 ** 31, -(2 ** 31) - 1, 1e-320, -0, 1e308, 99_999_999_999, -1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(Number),
);

/** Date texts out of range or impossible: year 0 and 10000, day 30 of February, hour 25, offsets past 24 h. */
export const outOfRangeDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "0000-01-01",
    "0000-00-00T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "+275760-09-13T00:00:00.001Z",
    "-271821-04-19T00:00:00Z",
    "2026-02-30",
    "2026-13-01",
    "2026-00-10",
    "2026-01-01T25:00:00Z",
    "2026-01-01T23:59:60Z",
    "2026-01-01T00:00:00+25:00",
    "1969-12-31T23:59:59.999Z",
    "9999-12-31T23:59:59.9999999999Z",
  ),
  fc.integer({ min: -300_000, max: 300_000 }).map((y) => `${y}-06-15T12:00:00Z`),
);

/** Deep nesting: objects or arrays up to thousands of levels (the body limit is 32). */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 25, max: 3000 }), fc.boolean())
  .map(([d, arr]) => nested(d, 1, arr));

/** A value that is out of range in some way: deep, numeric or a date. */
export const extremeValue: fc.Arbitrary<unknown> = fc.oneof(deepValue, outOfRangeNumber, outOfRangeDate);

/** Requests checked by expectWellFormed in this test file (each file is its own module instance). */
export const fuzzCount = { requests: 0 };

const extraKey = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "$where", "id", "companyId", "status", "paidAmount", "splits", ""),
  fc.string({ maxLength: 12 }),
);

type Path = (string | number)[];

/** Places a mutation can go: no deeper than 40 levels (an earlier mutation may have put 3000 there). */
function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (at.length >= 40) return out;
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

type Mutation =
  | { kind: "replace"; value: unknown }
  | { kind: "sameType"; text: string; int: number }
  | { kind: "delete" }
  | { kind: "extra"; key: string; value: unknown };

/** Strings with anything in them (control characters, NUL, lone surrogates, emoji, RTL). */
const wildText = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
  fc.constantFrom("a\u0000b", "\u0000", "Zoë \u202e", "\ud83d", "x".repeat(5000), "  padded  ", "MARIA SILVA"),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: junkValue.map((value) => ({ kind: "replace" as const, value })) },
  { weight: 2, arbitrary: extremeValue.map((value) => ({ kind: "replace" as const, value })) },
  // Same type, other value: a string stays a string (of anything), a number an integer (of any size).
  {
    weight: 4,
    arbitrary: fc
      .tuple(wildText, fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.integer(), fc.constantFrom(0, 1, 99, 100, 100_000_000, 100_000_001)))
      .map(([text, int]) => ({ kind: "sameType" as const, text, int })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "delete" as const }) },
  { weight: 2, arbitrary: fc.tuple(extraKey, junkValue).map(([key, value]) => ({ kind: "extra" as const, key, value })) },
);

function apply(root: unknown, path: Path, m: Mutation): unknown {
  if (path.length === 0) {
    if (m.kind === "replace") return m.value;
    if (m.kind === "delete") return undefined;
    if (m.kind === "sameType") return root;
    if (root && typeof root === "object" && !Array.isArray(root)) {
      // defineProperty: a "__proto__" key must become an own property, as JSON.parse would make it.
      Object.defineProperty(root, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      return root;
    }
    return m.value;
  }
  const parent = path.slice(0, -1).reduce<any>((o, k) => o?.[k], root);
  const last = path[path.length - 1];
  if (parent === null || typeof parent !== "object") return root;
  if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (m.kind === "replace") {
    parent[last] = m.value;
  } else if (m.kind === "sameType") {
    const cur = parent[last];
    parent[last] = typeof cur === "string" ? m.text : typeof cur === "number" ? m.int : typeof cur === "boolean" ? !cur : cur;
  } else {
    const target = parent[last];
    if (target && typeof target === "object" && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    } else parent[last] = m.value;
  }
  return root;
}

/** A valid body with one value (anywhere in it, the root too) replaced by an extreme one. */
export function extremeBody(base: unknown): fc.Arbitrary<{ body: unknown; mutations: string[] }> {
  return fc.tuple(fc.nat(), extremeValue).map(([n, value]) => {
    const body: unknown = structuredClone(base);
    const paths = pathsOf(body);
    const p = paths[n % paths.length];
    return { body: apply(body, p, { kind: "replace", value }), mutations: [`extreme ${p.join(".") || "(root)"}`] };
  });
}

/** A valid body with 0 to 3 mutations at random places (paths taken from the body itself). */
export function mutatedBody(base: unknown): fc.Arbitrary<{ body: unknown; mutations: string[] }> {
  return fc.array(fc.tuple(fc.nat(), mutation), { minLength: 0, maxLength: 3 }).map((ms) => {
    let body: unknown = structuredClone(base);
    const log: string[] = [];
    for (const [n, m] of ms) {
      const paths = pathsOf(body);
      const p = paths[n % paths.length];
      body = apply(body, p, m);
      log.push(`${m.kind} ${p.join(".") || "(root)"}`);
    }
    return { body, mutations: log };
  });
}

/** Raw body text: JSON of the value, or broken JSON now and then. */
export function rawBodyOf(value: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(value) ?? "";
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.nat().map((n) => text.slice(0, n % Math.max(1, text.length))) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[1,", "nul", "\"x", "{\"a\":1}}", "\u0000", "{\"a\":1e999}", " ".repeat(10)) },
    // Nesting as raw text, balanced or not (a parser or walker that recurses must never see it).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 33, max: 20_000 }), fc.constantFrom("{\"a\":", "["), fc.boolean())
        .map(([n, open, closed]) => open.repeat(n) + "1" + (closed ? (open === "[" ? "]" : "}").repeat(n) : "")),
    },
  );
}

/** The answer invariants of every request, whatever was sent. */
export function expectWellFormed(res: CallResult, context: string): void {
  fuzzCount.requests++;
  expect(res.status, `5xx for ${context}: ${res.text.slice(0, 400)}`).toBeLessThan(500);
  if (res.status === 405) return; // Next answers a method the route does not export, with no body
  if (res.status >= 400) {
    const b = res.body;
    expect(b && typeof b === "object", `error body is not JSON for ${context}: ${res.text.slice(0, 200)}`).toBe(true);
    expect(b.success, context).toBe(false);
    expect(b.status, context).toBe(res.status);
    expect(typeof b.message === "string" && b.message.length > 0, context).toBe(true);
    expect(Object.keys(STATUS_BY_CODE), `unknown code ${b.code} for ${context}`).toContain(b.code);
    expect(STATUS_BY_CODE[b.code as keyof typeof STATUS_BY_CODE], `code ${b.code} with HTTP ${res.status} for ${context}`).toBe(res.status);
    if (b.errors !== undefined) {
      expect(Array.isArray(b.errors), context).toBe(true);
      for (const e of b.errors) expect(typeof e.field === "string" && typeof e.message === "string", context).toBe(true);
    }
    const allowed = new Set(["success", "status", "message", "code", "errors", "requestId"]);
    expect(Object.keys(b).filter((k) => !allowed.has(k)), context).toEqual([]);
  }
}

/** Printable header values only: fetch's Headers refuses anything else before it reaches the app. */
export const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
