import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { routeOperations, type RouteOperation } from "../helpers/routes";
import { OPERATIONS } from "@/lib/openapi/operations";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { STATUS_BY_CODE } from "@/lib/http/errors";

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

  it("carries the guides (auth forms, idempotency, rate limit, test cards)", () => {
    const ids = doc["x-guides"].map((g: { id: string }) => g.id);
    expect(ids).toEqual(expect.arrayContaining(["authentication", "idempotency", "rate-limit", "test-cards", "webhooks"]));
    expect(doc.info.description).toContain("Idempotency-Key");
    expect(doc.info.description).toContain("4000000000000002");
  });
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
