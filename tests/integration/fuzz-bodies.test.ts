/**
 * Property tests over every endpoint that takes a body: valid bodies with random mutations (wrong
 * types, huge/negative numbers, NaN strings, unicode, nested junk, missing and extra fields) and
 * broken JSON. Whatever is sent: no 5xx, a well-formed error body, and a rejected request leaves
 * no row behind.
 */
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { RUNS, expectWellFormed, extremeBody, fuzzCount, mutatedBody, rawBodyOf } from "../helpers/fuzz";
import { createPix, paidPix, rowCounts, tokenize, MONEY_TABLES } from "../helpers/flows";
import { OPERATIONS, TRANSACTION_EXAMPLES } from "@/lib/openapi/operations";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { expect } from "vitest";

// Fuzzing sends thousands of requests with one key: the rate limit is not what is under test here.
process.env.RATE_LIMIT_PER_SECOND = "1000000";
process.env.RATE_LIMIT_BURST = "10000000";

const TABLES = [...MONEY_TABLES, "card_token_uses"];

let acct: CreatedAccount;
let tokens: string[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  acct = await createTestAccount("Fuzz");
  // Balance for cash-outs and refunds, a paid transaction to refund and move, a pending one.
  for (let i = 0; i < 3; i++) await paidPix(acct, 50_000);
  const paid = await paidPix(acct, 20_000);
  const pending = await createPix(acct.secretKey, { shipping: { fee: 0, address: null } });
  ids.id = String(paid.id);
  ids.pendingId = String(pending.id);
  const events = await call("GET", `/api/v1/transactions/${pending.id}/webhooks`, { auth: acct.secretKey });
  ids.eventId = String(events.body.data[0].id);
  tokens = await Promise.all(Array.from({ length: 20 }, () => tokenize(acct.publicKey)));
}, 120_000);

function fillPath(path: string, pick: number): string {
  return path.replace("{id}", pick % 2 ? ids.id : ids.pendingId).replace("{eventId}", ids.eventId);
}

/** Statuses seen, per property: the fuzzing must reach past validation, not only bounce off it. */
const seen: Record<string, Record<number, number>> = {};

async function sendAndCheck(method: string, url: string, init: { rawBody?: string; body?: unknown; headers?: Record<string, string>; auth?: string }, context: string) {
  const before = await rowCounts(TABLES);
  const res = await call(method, url, init);
  const bucket = (seen[`${method} ${url.split("?")[0]}`] ??= {});
  bucket[res.status] = (bucket[res.status] ?? 0) + 1;
  expectWellFormed(res, context);
  if (res.status >= 400) {
    const after = await rowCounts(TABLES);
    expect(after, `rows written by a rejected request (${res.status} ${res.body?.code}): ${context}`).toEqual(before);
  }
  return res;
}

describe("fuzz: POST /api/v1/transactions", () => {
  it(`mutated PIX, boleto and card bodies never give a 5xx or a partial write (${RUNS} runs)`, async () => {
    const seeds = [TRANSACTION_EXAMPLES.pix, TRANSACTION_EXAMPLES.boleto, TRANSACTION_EXAMPLES.credit_card];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: seeds.length - 1 }).chain((i) => mutatedBody(seeds[i])),
        fc.nat(),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        async ({ body, mutations }, t, idemKey) => {
          // Card seeds get a real token (a pool: used ones exercise the 422 path).
          if (body && typeof body === "object" && (body as any).card?.hash === TRANSACTION_EXAMPLES.credit_card.card.hash) {
            (body as any).card.hash = tokens[t % tokens.length];
          }
          const headers: Record<string, string> = {};
          if (idemKey !== undefined && /^[\x20-\x7e]*$/.test(idemKey)) headers["idempotency-key"] = idemKey;
          const raw = JSON.stringify(body);
          await sendAndCheck(
            "POST",
            "/api/v1/transactions",
            { auth: acct.secretKey, rawBody: raw ?? "", headers: { ...headers, "content-type": "application/json" } },
            `${mutations.join(", ")} :: ${(raw ?? "").slice(0, 300)}`,
          );
        },
      ),
      { numRuns: RUNS },
    );
    const statuses = seen["POST /api/v1/transactions"];
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    const created = statuses[201] ?? 0;
    // Mutations of optional or ignored fields still create: the property reaches the database.
    expect(created / total, JSON.stringify(statuses)).toBeGreaterThan(0.05);
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(0);
  }, 600_000);
});

describe("fuzz: every other operation with a body", () => {
  const withBody = OPERATIONS.filter((o) => o.body && !(o.method === "post" && o.path === "/api/v1/transactions"));

  it("the registry has bodies to fuzz", () => {
    expect(withBody.length).toBeGreaterThanOrEqual(5);
  });

  it(`mutated bodies (refund, sandbox move, delivery, cash-out, checkout, card token) (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: withBody.length - 1 }).chain((i) =>
          fc.tuple(fc.constant(i), mutatedBody(withBody[i].body!.example), fc.nat()),
        ),
        async ([i, { body, mutations }, pick]) => {
          const op = withBody[i];
          const url = op.auth === "publicKey" ? `${op.path}?publicKey=${acct.publicKey}` : fillPath(op.path, pick);
          await sendAndCheck(
            op.method.toUpperCase(),
            url,
            { auth: op.auth === "secretKey" ? acct.secretKey : undefined, rawBody: JSON.stringify(body) ?? "", headers: { "content-type": "application/json" } },
            `${op.method} ${url} ${mutations.join(", ")} :: ${(JSON.stringify(body) ?? "").slice(0, 300)}`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);

  it(`broken and truncated JSON on every body operation (${Math.ceil(RUNS / 2)} runs)`, async () => {
    const all = OPERATIONS.filter((o) => o.body);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: all.length - 1 }).chain((i) => fc.tuple(fc.constant(i), rawBodyOf(all[i].body!.example), fc.nat())),
        async ([i, raw, pick]) => {
          const op = all[i];
          const url = op.auth === "publicKey" ? `${op.path}?publicKey=${acct.publicKey}` : fillPath(op.path, pick);
          await sendAndCheck(
            op.method.toUpperCase(),
            url,
            { auth: op.auth === "secretKey" ? acct.secretKey : undefined, rawBody: raw, headers: { "content-type": "application/json" } },
            `${op.method} ${url} raw :: ${raw.slice(0, 200)}`,
          );
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 600_000);
});

describe("fuzz: deep nesting and out-of-range values on every body operation", () => {
  const all = OPERATIONS.filter((o) => o.body);
  // Many runs of cheap requests: most stop at the body reader or validation. Only the answer is
  // checked here (the properties above check that rejected requests write nothing).
  const runs = RUNS * 20;

  it(`one value replaced by a deep nest (25 to 3000 levels), an out-of-range number or an impossible date (${runs} runs)`, async () => {
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: all.length - 1 }).chain((i) => fc.tuple(fc.constant(i), extremeBody(all[i].body!.example), fc.nat())),
        async ([i, { body, mutations }, pick]) => {
          const op = all[i];
          const url = op.auth === "publicKey" ? `${op.path}?publicKey=${acct.publicKey}` : fillPath(op.path, pick);
          const raw = JSON.stringify(body) ?? "";
          const res = await call(op.method.toUpperCase(), url, {
            auth: op.auth === "secretKey" ? acct.secretKey : undefined,
            rawBody: raw,
            headers: { "content-type": "application/json" },
          });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          expectWellFormed(res, `${op.method} ${url} ${mutations.join(", ")} :: ${raw.slice(0, 200)}`);
        },
      ),
      { numRuns: runs },
    );
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(runs / 4);
  }, 600_000);
});

describe("fuzz volume", () => {
  // Last in the file: counts the requests the properties above sent (skipped when one is picked with -t).
  it(`this file checked at least ${RUNS * 22} answers (with fuzz-requests.test.ts, over 5,000 for the suite)`, () => {
    expect(fuzzCount.requests).toBeGreaterThanOrEqual(RUNS * 22);
  });
});
