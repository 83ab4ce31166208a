/**
 * The /docs page renders the OpenAPI document on the server: every operation, webhook, schema and
 * guide is on it, from the document and nothing else.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import DocsPage from "@/app/docs/page";
import { openApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import { SANDBOX_TEST_CARDS } from "@/lib/processors/sandbox/cards";
import { fieldRows } from "@/lib/openapi/render";

let html = "";
let doc: Record<string, any>;

beforeAll(() => {
  doc = openApiDocument();
  html = renderToStaticMarkup(createElement(DocsPage));
});

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");

describe("/docs", () => {
  it("lists every operation with its method, path and summary, anchored by operationId", () => {
    for (const o of OPERATIONS) {
      expect(html, o.operationId).toContain(`id="${o.operationId}"`);
      expect(unescape(html)).toContain(o.path);
      expect(unescape(html)).toContain(o.summary);
    }
  });

  it("documents request fields with nested names, required marks and constraints", () => {
    const text = unescape(html);
    for (const name of ["customer.document.number", "items[].unitPrice", "pix.expiresInDays", "card.hash"]) expect(text).toContain(name);
    expect(text).toContain("1 to 100000000");
    expect(text).not.toContain("9007199254740991"); // z.int()'s implicit safe range is not a documented rule
    const rows = fieldRows(doc, doc.paths["/api/v1/transactions"].post.requestBody.content["application/json"].schema);
    expect(rows.find((r) => r.name === "paymentMethod")?.required).toBe(true);
    expect(rows.find((r) => r.name === "postbackUrl")?.required).toBe(false);
  });

  it("shows the guides: auth forms, idempotency, rate limit, webhooks signing, test cards", () => {
    const text = unescape(html);
    for (const g of doc["x-guides"]) expect(text).toContain(g.title);
    expect(text).toContain("Basic base64(sk_test_...:)");
    expect(text).toContain("Idempotency-Key");
    expect(text).toContain("Retry-After");
    expect(text).toContain("webhook-signature");
    for (const c of SANDBOX_TEST_CARDS) expect(text).toContain(c.number);
  });

  it("shows both webhooks we send and every schema of the document", () => {
    expect(html).toContain('id="webhook-transaction"');
    expect(html).toContain('id="webhook-cash_out"');
    for (const name of Object.keys(doc.components.schemas)) expect(html, name).toContain(`id="schema-${name}"`);
  });

  it("shows examples and loads nothing from elsewhere", () => {
    expect(unescape(html)).toContain('"paymentMethod": "pix"');
    expect(html).not.toMatch(/<script\b/);
    expect(html).not.toMatch(/(src|href)="https?:\/\//);
    expect(html.length).toBeLessThan(600_000);
  });
});
