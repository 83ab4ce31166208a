/**
 * Amounts written as reais ("12,50", "12.50") get the sentence a fractional number gets, never zod's
 * regex; a body that is JSON but not an object gets "The body must be a JSON object.".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { paidPix } from "../helpers/money";
import { pixBody, rowCounts } from "../helpers/flows";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

const SENTENCE = "must be an integer number of centavos (R$ 10,00 is 1000)";
let a: CreatedAccount;
let paidId: number;

beforeAll(async () => {
  a = await createTestAccount("Loja Mensagens");
  paidId = (await paidPix(a, 50_000)).id;
});

async function amountError(method: string, path: string, body: unknown) {
  const res = await call(method, path, { auth: a.secretKey, body });
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe("validation_error");
  return res.body as { message: string; errors: { field: string; message: string }[] };
}

describe("a string amount with anything but digits", () => {
  it.each(["12,50", "12.50", "R$ 12,50", "1e3", "-5"])("%s: cash-out, refund and transaction say it in the fractional number's words", async (amount) => {
    for (const [method, path, sent] of [
      ["POST", "/api/v1/cashOut/request", { amount, pixKey: "maria@example.com" }],
      ["POST", `/api/v1/transactions/${paidId}/refund`, { amount }],
      ["POST", "/api/v1/transactions", pixBody({ amount })],
      ["POST", "/v1/transactions", pixBody({ amount })],
    ] as const) {
      const body = await amountError(method, path, sent);
      expect(body.errors, `${path} ${amount}`).toContainEqual({ field: "amount", message: SENTENCE });
      expect(JSON.stringify(body)).not.toMatch(/Invalid string|must match pattern/);
    }
  });

  it("the same words as 12.5 (a number) gets", async () => {
    const body = await amountError("POST", "/api/v1/cashOut/request", { amount: 12.5, pixKey: "maria@example.com" });
    expect(body.errors).toEqual([{ field: "amount", message: SENTENCE }]);
    expect(body.message).toMatch(new RegExp(`is invalid: amount ${SENTENCE.replace(/[()$]/g, "\\$&")}\\.$`));
  });

  it("a string of digits is still the amount where strings are taken (cash-out), and nothing else moved on the refused ones", async () => {
    const before = await rowCounts();
    await amountError("POST", "/api/v1/cashOut/request", { amount: "12,50", pixKey: "maria@example.com" });
    expect(await rowCounts()).toEqual(before);
    const ok = await call("POST", "/api/v1/cashOut/request", { auth: a.secretKey, body: { amount: " 1250 ", pixKey: "maria@example.com" } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.amount).toBe(1250);
  });
});

describe("a JSON body that is not an object", () => {
  it.each(["[]", "null", "[{\"amount\":1000}]", "\"x\"", "1000", "true"])("%s: 400 'The body must be a JSON object.'", async (raw) => {
    for (const path of ["/api/v1/cashOut/request", "/api/v1/transactions", `/api/v1/transactions/${paidId}/refund`, "/api/v1/checkouts", "/v1/transactions"]) {
      const res = await call("POST", path, { auth: a.secretKey, rawBody: raw, headers: { "content-type": "application/json" } });
      expect(res.status, `${path} ${raw}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({
        code: "validation_error",
        message: "The body must be a JSON object.",
        errors: [{ field: "body", message: "must be a JSON object" }],
      });
      expect(res.body.requestId).toBeTruthy();
    }
  });

  it("an empty body still reads as {} (a full refund)", async () => {
    const p = await paidPix(a, 2_000);
    const res = await call("POST", `/api/v1/transactions/${p.id}/refund`, { auth: a.secretKey, rawBody: "" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.status).toBe("refunded");
  });
});
