/**
 * What docs/api.md and the OpenAPI document say matches what the API does: the boleto's digitableLine
 * as it is returned (formatted, 54 characters), the Idempotent-Replayed header of a replay, every field
 * of the company object, returnUrl on transactions and payment links, a curl example that runs when
 * pasted, and the Bearer scheme.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { boletoBody, pixBody } from "../helpers/flows";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import { getEnv } from "@/lib/env";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

const API_MD = readFileSync(path.resolve(__dirname, "../../docs/api.md"), "utf8");
let doc: Record<string, any>;
let a: CreatedAccount;

beforeAll(async () => {
  doc = buildOpenApiDocument();
  a = await createTestAccount("Loja Docs");
});

/** The paragraph of docs/api.md that starts with `start`, to its first blank line. */
function paragraph(start: string): string {
  const at = API_MD.indexOf(start);
  expect(at, start).toBeGreaterThanOrEqual(0);
  return API_MD.slice(at, API_MD.indexOf("\n\n", at));
}

describe("boleto.digitableLine", () => {
  it("is returned formatted as printed (54 characters, 47 digits) and the docs say so, with how to get the digits", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: boletoBody() });
    expect(res.status, res.text).toBe(201);
    const line: string = res.body.data.boleto.digitableLine;
    expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(line).toHaveLength(54);
    expect(line.replace(/\D/g, "")).toHaveLength(47);

    const description: string = doc.components.schemas.Boleto.properties.digitableLine.description;
    expect(description).not.toBe("47-digit line");
    expect(description).toMatch(/formatted as printed/);
    expect(description).toMatch(/strip every non-digit/);
    expect(doc.components.schemas.Boleto.properties.digitableLine.example).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(API_MD).not.toMatch(/its 47-digit line/);
    expect(API_MD).toContain("formatted as a slip prints it, with dots");
    expect(API_MD).toContain('digitableLine.replace(/\\D/g, "")');
  });
});

describe("Idempotent-Replayed", () => {
  it("is declared on the success answers of every idempotent operation (and of their /v1 twins), and only there", () => {
    const idempotent = OPERATIONS.filter((o) => o.idempotent);
    expect(idempotent.length).toBeGreaterThanOrEqual(4);
    for (const o of OPERATIONS) {
      for (const prefix of ["/api/v1", "/v1"]) {
        const op = doc.paths[o.path.replace(/^\/api\/v1/, prefix)]?.[o.method];
        if (!op) continue;
        for (const status of Object.keys(o.responses)) {
          const header = op.responses[status].headers?.["idempotent-replayed"];
          if (o.idempotent) expect(header, `${o.method} ${prefix} ${status}`).toMatchObject({ schema: { type: "string", enum: ["true"] } });
          else expect(header, `${o.method} ${o.path} ${status}`).toBeUndefined();
        }
      }
    }
  });

  it("is what a replay carries", async () => {
    const headers = { "idempotency-key": `docs-${a.companyId}-replay` };
    const body = pixBody();
    const first = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("docs/api.md field lists", () => {
  it("the company object lists every field GET /api/v1/company returns", async () => {
    const res = await call("GET", "/api/v1/company", { auth: a.secretKey });
    expect(res.status).toBe(200);
    const row = paragraph("| `GET /api/v1/company` |");
    for (const field of Object.keys(res.body.data)) expect(row, field).toContain(field);
    for (const field of Object.keys(doc.components.schemas.Company.properties)) expect(row, field).toContain(field);
  });

  it("returnUrl is in the optional fields of POST /transactions and of POST /checkouts", () => {
    expect(paragraph("Optional: `customer.phone`")).toContain("`returnUrl`");
    expect(paragraph("`POST /api/v1/checkouts` (Idempotency-Key honoured) creates a payment link")).toContain("`returnUrl?`");
  });
});

describe("Authentication guide", () => {
  it("its curl example names this deployment's base URL, no {placeholder}, and it answers when run", async () => {
    const guide = doc["x-guides"].find((g: { id: string }) => g.id === "authentication");
    expect(guide.code).not.toMatch(/[{}]/);
    expect(guide.code).toBe(`curl -u "sk_test_...:" ${getEnv().baseUrl.replace(/\/$/, "")}/api/v1/company`);
    expect(doc.info.description).toContain(`${getEnv().baseUrl.replace(/\/$/, "")}/api/v1/company`);
    // The path it names is a real route that answers with the key in the form it shows (-u "sk:").
    const url = new URL(guide.code.split(" ").pop());
    expect((await call("GET", url.pathname, { auth: a.secretKey })).status).toBe(200);
  });

  it("declares Bearer beside Basic", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v1/company"].get.security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }]);
  });
});
