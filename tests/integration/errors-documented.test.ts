/**
 * Every error code an answer can carry (the code -> status table, lib/http/errors.ts) is documented
 * where merchants look: docs/api.md's error table, the README's list of codes, and in the OpenAPI
 * document on the operations that can answer it. `payload_too_large` (413) and `method_not_allowed`
 * (405) were in the Error schema's enum but in neither page, and no operation listed a 413.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { OPERATIONS } from "@/lib/openapi/operations";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const CODES = Object.entries(STATUS_BY_CODE);

let doc: Record<string, any>;
let a: CreatedAccount;

beforeAll(async () => {
  doc = buildOpenApiDocument();
  a = await createTestAccount("Loja Erros");
});

describe("every error code is documented", () => {
  it("in docs/api.md's error table, with its HTTP status", () => {
    const api = read("docs/api.md");
    for (const [code, status] of CODES) expect(api, code).toContain(`| \`${code}\` | ${status} |`);
  });

  it("in the README's list of codes, with its HTTP status", () => {
    const readme = read("README.md");
    const start = readme.indexOf("Errors always have one shape");
    expect(start).toBeGreaterThan(-1);
    const list = readme.slice(start, readme.indexOf("\n\n", start));
    for (const [code, status] of CODES) {
      expect(list, code).toContain(`\`${code}\``);
      const after = list.slice(list.indexOf(`\`${code}\``));
      expect(after.slice(0, after.search(/\)/) + 1), code).toContain(String(status));
    }
  });
});

describe("the OpenAPI document lists the 429 where a limit applies", () => {
  it("on every secret-key operation and on card tokenization (per public key and per address, docs/security.md)", () => {
    for (const o of OPERATIONS.filter((x) => x.auth !== "none")) {
      const r = doc.paths[o.path][o.method].responses["429"];
      expect(r, `${o.method} ${o.path}`).toBeDefined();
      expect(r.description).toContain("rate_limited");
      expect(r.headers["retry-after"]).toBeDefined();
    }
    expect(doc.paths["/api/v1/card-token"].post.description).toMatch(/CARD_TOKEN_LIMIT_PER_KEY.*CARD_TOKEN_LIMIT_PER_ADDRESS/);
  });
});

describe("the OpenAPI document lists the 413 where a body is read", () => {
  const readsBody = (o: (typeof OPERATIONS)[number]) => Boolean(o.body) || (o.auth === "secretKey" && o.method !== "get");

  it("every operation that takes a body (and every other secret-key write, whose body the kit reads) has a 413 payload_too_large", () => {
    const bodied = OPERATIONS.filter(readsBody);
    expect(bodied.map((o) => o.operationId)).toEqual(expect.arrayContaining(["createTransaction", "createCardToken"]));
    for (const o of bodied) {
      const r = doc.paths[o.path][o.method].responses["413"];
      expect(r, `${o.method} ${o.path}`).toBeDefined();
      expect(r.description).toContain("payload_too_large");
      expect(r.content["application/json"].schema).toBeDefined();
    }
  });

  it("reads do not list it", () => {
    for (const o of OPERATIONS.filter((x) => !readsBody(x))) {
      expect(doc.paths[o.path][o.method].responses["413"], `${o.method} ${o.path}`).toBeUndefined();
    }
  });

  it("a redelivery (a POST without a documented body) answers 413 to a body over 1 MB, as documented", async () => {
    const res = await call("POST", "/api/v1/webhooks/1/redeliver", { auth: a.secretKey, rawBody: " ".repeat(MAX_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, status: 413, code: "payload_too_large" });
  });
});
