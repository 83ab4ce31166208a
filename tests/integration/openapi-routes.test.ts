import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { routeOperations, type RouteOperation } from "../helpers/routes";
import { OPERATIONS } from "@/lib/openapi/operations";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import { validateAgainst } from "../helpers/json-schema";

let routes: RouteOperation[];
let doc: Record<string, any>;

beforeAll(async () => {
  routes = await routeOperations();
  doc = buildOpenApiDocument();
});

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

describe("the OpenAPI registry covers the route tree", () => {
  it("every route file and method under app/api/v1 has an operation in the document", () => {
    const documented = new Set(OPERATIONS.map((o) => key(o.method, o.path)));
    const missing = routes.filter((r) => !documented.has(key(r.method, r.path))).map((r) => key(r.method, r.path));
    expect(missing, `routes without an operation in lib/openapi/operations.ts`).toEqual([]);
  });

  it("every operation in the document has a route file exporting that method", () => {
    const existing = new Set(routes.map((r) => key(r.method, r.path)));
    const ghosts = OPERATIONS.filter((o) => !existing.has(key(o.method, o.path))).map((o) => key(o.method, o.path));
    expect(ghosts, `operations in lib/openapi/operations.ts without a route`).toEqual([]);
  });

  it("operation ids are unique and every operation is in the generated document", () => {
    const ids = OPERATIONS.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of OPERATIONS) expect(doc.paths[o.path]?.[o.method]?.operationId, key(o.method, o.path)).toBe(o.operationId);
  });

  it("path parameters of each operation match the {names} in its path", () => {
    for (const o of OPERATIONS) {
      const inPath = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = Object.keys(o.pathParams?.shape ?? {}).sort();
      expect(declared, key(o.method, o.path)).toEqual(inPath);
    }
  });
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with both webhooks documented with Standard Webhooks headers", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const name of ["transaction", "cash_out"]) {
      const params: { name: string; in: string }[] = doc.webhooks[name].post.parameters;
      expect(params.filter((p) => p.in === "header").map((p) => p.name).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    }
  });

  it("every $ref resolves to a component", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(doc.components.schemas[r], r).toBeDefined();
  });

  it("documents the error body with every code of the code -> status table", () => {
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(STATUS_BY_CODE).sort());
    for (const o of OPERATIONS) {
      const statuses = Object.keys(doc.paths[o.path][o.method].responses);
      expect(statuses, key(o.method, o.path)).toContain("500");
      if (o.auth === "secretKey") expect(statuses, key(o.method, o.path)).toEqual(expect.arrayContaining(["401", "429"]));
    }
  });

  it("marks idempotent operations with the Idempotency-Key header and secret-key ones with basicAuth", () => {
    for (const o of OPERATIONS) {
      const op = doc.paths[o.path][o.method];
      const header = (op.parameters ?? []).find((p: { name: string }) => p.name === "Idempotency-Key");
      expect(Boolean(header), key(o.method, o.path)).toBe(Boolean(o.idempotent));
      // The 409 of a key still being processed carries Retry-After: 1, and the document says so.
      if (o.idempotent) expect(op.responses["409"].headers["retry-after"], key(o.method, o.path)).toBeDefined();
      if (o.auth === "secretKey") expect(op.security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }]);
    }
  });

  it("every example body is accepted by the schema that validates the request", () => {
    for (const o of OPERATIONS.filter((x) => x.body)) {
      const bodies = [o.body!.example, ...Object.values(o.body!.examples ?? {})];
      for (const b of bodies) {
        const r = o.body!.schema.safeParse(b);
        expect(r.success, `${key(o.method, o.path)}: ${JSON.stringify(r.error?.issues ?? [])}`).toBe(true);
      }
    }
  });

  it("every example in the document (requests, parameters, responses, webhooks, schemas) is valid against the schema it illustrates", () => {
    const problems: string[] = [];
    const examplesOf = (c: Record<string, any>) => [...(c.example !== undefined ? [c.example] : []), ...Object.values(c.examples ?? {}).map((e: any) => e.value)];
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        if (typeof op !== "object" || !op || !op.responses) continue;
        for (const [type, c] of Object.entries<Record<string, any>>(op.requestBody?.content ?? {})) {
          if (!c.schema) continue;
          for (const ex of examplesOf(c)) {
            checked++;
            problems.push(...validateAgainst(doc, c.schema, ex).map((p) => `${method.toUpperCase()} ${path} request (${type}): ${p}`));
          }
        }
        for (const param of [...(item.parameters ?? []), ...(op.parameters ?? [])] as Record<string, any>[]) {
          if (!param.schema) continue;
          for (const ex of examplesOf(param)) {
            checked++;
            problems.push(...validateAgainst(doc, param.schema, ex).map((p) => `${method.toUpperCase()} ${path} parameter ${param.name}: ${p}`));
          }
        }
        for (const [status, res] of Object.entries<Record<string, any>>(op.responses ?? {})) {
          const c = res.content?.["application/json"];
          if (!c?.schema) continue;
          for (const ex of examplesOf(c)) {
            checked++;
            problems.push(...validateAgainst(doc, c.schema, ex).map((p) => `${method.toUpperCase()} ${path} ${status}: ${p}`));
          }
        }
      }
    }
    for (const [name, hook] of Object.entries<Record<string, any>>(doc.webhooks ?? {})) {
      const c = hook.post.requestBody.content["application/json"];
      for (const ex of examplesOf(c)) {
        checked++;
        problems.push(...validateAgainst(doc, c.schema, ex).map((p) => `webhook ${name}: ${p}`));
      }
    }
    for (const [name, schema] of Object.entries<Record<string, any>>(doc.components.schemas)) {
      for (const ex of [...(schema.example !== undefined ? [schema.example] : []), ...(schema.examples ?? [])]) {
        checked++;
        problems.push(...validateAgainst(doc, { $ref: `#/components/schemas/${name}` }, ex).map((p) => `schema ${name}: ${p}`));
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it("carries the guides (auth forms, idempotency, rate limit, test cards)", () => {
    const ids = doc["x-guides"].map((g: { id: string }) => g.id);
    expect(ids).toEqual(expect.arrayContaining(["authentication", "idempotency", "rate-limit", "test-cards", "webhooks"]));
    expect(doc.info.description).toContain("Idempotency-Key");
    expect(doc.info.description).toContain("4000000000000002");
  });
});

/** The schema the document gives a field of an operation's request body, following $refs, nullable anyOfs and arrays. */
function documentedField(method: string, path: string, field: (string | number)[]): Record<string, any> {
  const resolve = (s: Record<string, any>): Record<string, any> => {
    if (s.$ref) return resolve(doc.components.schemas[s.$ref.split("/").pop()]);
    // `x | null` (and an object beside null): the branch that is not null.
    if (s.anyOf && !s.type) {
      const branches = s.anyOf.filter((b: { type?: string }) => b.type !== "null");
      if (branches.length === 1) return resolve({ ...branches[0], description: s.description ?? branches[0].description });
    }
    return s;
  };
  let s = resolve(doc.paths[path][method].requestBody.content["application/json"].schema);
  for (const part of field) s = resolve(typeof part === "number" ? s.items : s.properties[part]);
  return s;
}

function withField(body: unknown, field: (string | number)[], value: unknown): Record<string, any> {
  const copy = structuredClone(body) as Record<string, any>;
  let o: any = copy;
  for (const part of field.slice(0, -1)) o = o[part] ??= {};
  o[field[field.length - 1]] = value;
  return copy;
}

function bodyOf(method: string, path: string) {
  const op = OPERATIONS.find((o) => o.method === method && o.path === path)!;
  return { schema: op.body!.schema, example: op.body!.example };
}

/** A valid e-mail address of exactly `n` characters. */
const emailOf = (n: number) => `${"a".repeat(n - 20)}@${"b".repeat(15)}.com`;

describe("request bodies: the document states the limits the server applies", () => {
  const STRING_LIMITS: [string, string, (string | number)[], number, ((n: number) => string)?][] = [
    ["post", "/api/v1/transactions", ["customer", "email"], 320, emailOf],
    ["post", "/api/v1/transactions", ["externalRef"], 200],
    ["post", "/api/v1/transactions", ["customer", "externalRef"], 200],
    ["post", "/api/v1/transactions", ["items", 0, "externalRef"], 200],
    ["post", "/api/v1/transactions", ["shipping", "address", "street"], 200],
    ["post", "/api/v1/transactions", ["shipping", "address", "zipCode"], 20],
    ["post", "/api/v1/cashOut/request", ["externalRef"], 200],
    ["post", "/api/v1/cashOut/request", ["description"], 140],
    ["post", "/api/v1/cashOut/request", ["pixKey"], 100],
  ];
  for (const [method, path, field, max, valueOf = (n: number) => "7".repeat(n)] of STRING_LIMITS) {
    it(`${method.toUpperCase()} ${path} ${field.join(".")}: maxLength ${max} in the document, ${max} characters accepted and ${max + 1} refused`, () => {
      expect(documentedField(method, path, field).maxLength).toBe(max);
      const { schema, example } = bodyOf(method, path);
      const ok = schema.safeParse(withField(example, field, valueOf(max)));
      expect(ok.success, JSON.stringify(ok.error?.issues)).toBe(true);
      const refused = schema.safeParse(withField(example, field, valueOf(max + 1)));
      expect(refused.success).toBe(false);
      expect(refused.error!.issues.map((i) => i.path.join("."))).toContain(field.join("."));
    });
  }

  for (const [method, path, max] of [
    ["post", "/api/v1/transactions/{id}/refund", Number.MAX_SAFE_INTEGER],
    ["post", "/api/v1/cashOut/request", 100_000_000],
  ] as const) {
    it(`${method.toUpperCase()} ${path} amount: an integer of centavos from 1 in the document, as the server refuses 0, negative and fractional amounts`, () => {
      const amount = documentedField(method, path, ["amount"]);
      const number = amount.anyOf.find((b: { type: string }) => b.type !== "string");
      expect(number).toEqual({ type: "integer", minimum: 1, maximum: max });
      // A digit string stays allowed (the server reads "1500" as 1500).
      expect(amount.anyOf.find((b: { type: string }) => b.type === "string").pattern).toBeDefined();
      const { schema, example } = bodyOf(method, path);
      for (const bad of [0, -100, 12.5, max + 1]) {
        const r = schema.safeParse(withField(example, ["amount"], bad));
        expect(r.success, `amount ${bad}`).toBe(false);
        // The number's own words, not the union's: "must be at least 1 centavo", "must be an integer ...".
        expect(r.error!.issues[0].message, `amount ${bad}`).not.toMatch(/^must be an integer number of centavos$/);
      }
      expect(schema.safeParse(withField(example, ["amount"], 1)).success).toBe(true);
      expect(schema.safeParse(withField(example, ["amount"], " 150 ")).success).toBe(true);
    });
  }
});

describe("GET /api/v1/openapi.json", () => {
  it("is public and returns the document", async () => {
    const res = await call("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });
});
