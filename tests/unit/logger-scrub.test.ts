import { describe, expect, it } from "vitest";
import { pathForLog, scrub } from "@/lib/logger";

const PERSONAL = ["maria.silva@example.com", "111.444.777-35", "11144477735", "11.222.333/0001-81", "12.ABC.345/01DE-35", "98765-4321"];

describe("scrub removes what a request carried from error text", () => {
  it.each([
    [
      "a failed query's parameters (drizzle)",
      'DrizzleQueryError: Failed query: select "id" from "transactions" where "customer_email" = $1 and "customer_document" = $2\nparams: maria.silva@example.com,11144477735,+010000-01-01T00:00:00.000Z\n    at PgliteSession.queryWithCache (/app/node_modules/drizzle-orm/pglite/session.js:41:15)',
      ["params: [redacted]", 'where "customer_email" = $1', "session.js:41:15"],
    ],
    [
      "a constraint error's key value",
      'error: duplicate key value violates unique constraint "users_email_idx" Key (lower(email))=(maria.silva@example.com) already exists.',
      ["Key (lower(email))=([redacted]) already exists"],
    ],
    ["a piece of a JSON body", `SyntaxError: Unexpected token 'x', "{"email": "maria.silva@example.com", "cpf": "1114"... is not valid JSON`, ["[redacted] is not valid JSON"]],
    ["a URL's query string", "TypeError: fetch failed https://merchant.example/hook?email=maria.silva%40example.com&cpf=111.444.777-35 (x)", ["https://merchant.example/hook?[redacted] (x)"]],
    ["a path's query string", "at GET /api/v1/transactions?email=maria.silva@example.com&documentNumber=11144477735 failed", ["/api/v1/transactions?[redacted] failed"]],
    [
      "documents, e-mails and phones written anywhere",
      "customer maria.silva@example.com CPF 111.444.777-35 CNPJ 11.222.333/0001-81 new CNPJ 12.ABC.345/01DE-35 phone (11) 98765-4321",
      ["customer [redacted-email] CPF [redacted-document] CNPJ [redacted-document] new CNPJ [redacted-document] phone [redacted-phone]"],
    ],
    ["the PSP webhook's token in its URL", "fetch failed https://loja.example/api/v1/psp/api-pix/AbC_dEf-123456789012345678901234567890123/pix", ["/psp/api-pix/[redacted]/pix"]],
    ["secrets and card numbers, as before", "sk_test_abcdef123 whsec_c2VjcmV0 4111111111111111", ["sk_test_[redacted] whsec_[redacted] [redacted-pan]"]],
  ])("%s", (_what, text, kept) => {
    const out = scrub(text);
    for (const p of PERSONAL) expect(out).not.toContain(p);
    expect(out).not.toMatch(/maria|4111111111111111|abcdef123/);
    for (const k of kept) expect(out).toContain(k);
  });

  it("pathForLog cuts the PSP webhook's token out of a request's path and leaves every other path as it is", () => {
    expect(pathForLog("/api/v1/psp/api-pix/AbC_dEf-1234567890/pix")).toBe("/api/v1/psp/api-pix/[redacted]/pix");
    expect(pathForLog("/v1/psp/api-pix/AbC_dEf-1234567890")).toBe("/v1/psp/api-pix/[redacted]");
    expect(pathForLog("/api/v1/transactions/1001")).toBe("/api/v1/transactions/1001");
    // Escaped (a 404 is still logged): read as it decodes.
    expect(pathForLog("/api/v1/%70sp/api%2Dpix/AbC_dEf-1234567890/pix")).toBe("/api/v1/psp/api-pix/[redacted]/pix");
    expect(pathForLog("/api/v1/psp/api-pix/AbC%ZZdEf/pix")).toBe("/api/v1/psp/api-pix/[redacted]/pix");
  });

  it("leaves stack frames, SQL and request ids readable", () => {
    const text = "Error: boom\n    at listTransactions (/app/lib/services/list-transactions.ts:33:20)\n    requestId 3f2b1c4e-0000-4000-8000-000000000001 at 2026-01-31T12:00:00.000Z";
    expect(scrub(text)).toBe(text);
  });
});
