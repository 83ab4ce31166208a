/**
 * Property tests over what surrounds the body: Authorization variants, Idempotency-Key junk,
 * content types, random paths under /api/v1 and random query strings. No 5xx, a well-formed error
 * body, and nothing written by a rejected request.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { basic, call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { RUNS, expectWellFormed, fuzzCount, headerText, junkValue } from "../helpers/fuzz";
import { createPix, paidPix, rowCounts } from "../helpers/flows";
import { OPERATIONS } from "@/lib/openapi/operations";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

process.env.RATE_LIMIT_PER_SECOND = "1000000";
process.env.RATE_LIMIT_BURST = "10000000";

let a: CreatedAccount;
let b: CreatedAccount;
const ids: Record<string, string> = {};

beforeAll(async () => {
  a = await createTestAccount("Fuzz A");
  b = await createTestAccount("Fuzz B");
  await paidPix(a, 50_000);
  const t = await createPix(a.secretKey);
  ids.id = String(t.id);
  const events = await call("GET", `/api/v1/transactions/${t.id}/webhooks`, { auth: a.secretKey });
  ids.eventId = String(events.body.data[0].id);
}, 120_000);

/** Authorization header values: valid forms, other accounts' keys, broken encodings, junk. */
function authorizations(): fc.Arbitrary<string | undefined> {
  const sk = fc.constantFrom(a.secretKey, b.secretKey, "sk_test_" + "A".repeat(32), "sk_live_x", "sk_", "");
  const pk = fc.constantFrom(a.publicKey, b.publicKey, "pk_test_" + "B".repeat(24), "x", "", "pk_");
  return fc.oneof(
    fc.constant(undefined),
    fc.tuple(sk, pk).map(([s, p]) => basic(s, p)),
    fc.tuple(sk, pk).map(([s, p]) => basic(p, s)),
    sk.map((s) => basic(s)),
    sk.map((s) => `Bearer ${s}`),
    sk.map((s) => `basic ${Buffer.from(`${s}:`).toString("base64url")}`),
    headerText.map((t) => `Basic ${t}`),
    headerText,
    fc.string({ unit: "binary", maxLength: 40 }).map((t) => basic(t, t)),
    fc.constantFrom("Basic", "Basic ", "Basic ====", "Basic Og==", `Basic ${"A".repeat(8000)}`, "Digest x", "Basic c2tfdGVzdF86"),
  );
}

const contentTypes = fc.constantFrom(
  undefined,
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "application/xml",
  "",
);

function concrete(path: string): string {
  return path.replace("{id}", ids.id).replace("{eventId}", ids.eventId);
}

describe("fuzz: headers", () => {
  it(`random Authorization, Idempotency-Key and Content-Type on every operation (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: OPERATIONS.length - 1 }),
        authorizations(),
        fc.option(fc.oneof(headerText, fc.constant("k".repeat(300)), fc.constant(" ")), { nil: undefined }),
        contentTypes,
        fc.boolean(),
        async (i, authorization, idem, contentType, validBody) => {
          const op = OPERATIONS[i];
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers.authorization = authorization;
          if (idem !== undefined) headers["idempotency-key"] = idem;
          if (contentType !== undefined) headers["content-type"] = contentType;
          const method = op.method.toUpperCase();
          const rawBody = method === "GET" ? undefined : JSON.stringify(validBody && op.body ? op.body.example : { junk: true });
          const url = op.auth === "publicKey" ? `${op.path}?publicKey=${validBody ? a.publicKey : "pk_nope"}` : concrete(op.path);
          const before = await rowCounts();
          const res = await call(method, url, { headers, rawBody });
          expectWellFormed(res, `${method} ${url} auth=${authorization?.slice(0, 60)} idem=${idem?.slice(0, 40)} ct=${contentType}`);
          if (res.status >= 400) expect(await rowCounts()).toEqual(before);
          // A secret-key route never answers 2xx without one of this test's valid secret keys.
          if (op.auth === "secretKey" && res.status < 300) {
            expect(authorization ?? "").not.toBe("");
          }
          if (res.status === 401 && op.auth === "secretKey") expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);

  it("a valid key of account B never reads account A's resources through any form", async () => {
    for (const authorization of [basic(b.secretKey, ""), basic(b.publicKey, b.secretKey), basic(b.secretKey, a.publicKey), basic(a.publicKey, b.secretKey)]) {
      const res = await call("GET", `/api/v1/transactions/${ids.id}`, { headers: { authorization } });
      expect([401, 404]).toContain(res.status);
    }
  });
});

const segment = fc.oneof(
  fc.constantFrom("transactions", "cashOut", "balance", "statement", "refund", "test", "delivery", "webhooks", "redeliver", "checkouts", "company", "request", "js", "card-token", "openapi.json", "health"),
  fc.constantFrom("0", "-1", "1e3", "00001000", "9".repeat(30), "1000.5", "0x10", "NaN", "null", "undefined", "%20", "%2F", "~", "...", "%E2%82%AC", "%F0%9F%92%B8", "a%00b"),
  // "." and ".." are dot-segments: URL parsing removes them, leaving /api/v1 (not under test here).
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/).filter((s) => s !== "." && s !== ".."),
  fc.integer({ min: -5, max: 2 ** 53 }).map(String),
);

describe("fuzz: paths and methods under /api/v1", () => {
  it(`random paths and methods answer 404/405 or a well-formed error, never a 5xx (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
        fc.boolean(),
        async (segments, method, authed) => {
          const url = `/api/v1/${segments.join("/")}`;
          const before = await rowCounts();
          const res = await call(method, url, {
            auth: authed ? a.secretKey : undefined,
            rawBody: method === "GET" || method === "DELETE" ? undefined : "{}",
            headers: { "content-type": "application/json" },
          });
          expectWellFormed(res, `${method} ${url}`);
          if (res.status >= 400) expect(await rowCounts()).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});

describe("fuzz: query strings of the GET operations", () => {
  const gets = OPERATIONS.filter((o) => o.method === "get");
  const knownKeys = [...new Set(gets.flatMap((o) => Object.keys(o.query?.shape ?? {})))];

  it(`random and known query parameters with junk values (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: gets.length - 1 }),
        fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...knownKeys), fc.stringMatching(/^[a-zA-Z_[\]]{1,12}$/)),
            fc.oneof(
              junkValue.map((v) => (typeof v === "string" ? v : JSON.stringify(v) ?? "")),
              fc.constantFrom("pix,boleto", "paid,,", "2026-13-45", "2026-02-30", "9999-12-31T23:59:59Z", "-1", "0", "101", "1e2", "%", "\u0000", "'", "\\"),
            ),
          ),
          { maxLength: 4 },
        ),
        async (i, params) => {
          const op = gets[i];
          const qs = new URLSearchParams(params.map(([k, v]) => [k, v.slice(0, 2000)])).toString();
          const url = `${concrete(op.path)}?${qs}`;
          const res = await call("GET", url, { auth: a.secretKey });
          expectWellFormed(res, `GET ${url.slice(0, 300)}`);
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});

describe("fuzz volume", () => {
  // Last in the file: counts the requests the properties above sent (skipped when one is picked with -t).
  it(`this file checked at least ${RUNS * 3} answers (with fuzz-bodies.test.ts, over 5,000 for the suite)`, () => {
    expect(fuzzCount.requests).toBeGreaterThanOrEqual(RUNS * 3);
  });
});
