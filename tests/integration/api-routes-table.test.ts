/**
 * The table the HTTP server hook answers 405s from (lib/http/api-routes.ts) is the routing of app/:
 * every route module under app/api/v1 with the methods it exports, and /v1 with the same paths but
 * the PSP's own plus its two family-only paths. A route added or a method removed without the table
 * fails here.
 */
import { describe, expect, it } from "vitest";
import { API_V1_ROUTES, CHECKOUT_ROUTES, V1_ROUTES, allowedMethodsOf } from "@/lib/http/api-routes";
import { CHECKOUT_ROOT, routeOperations } from "../helpers/routes";

const sorted = (t: Record<string, readonly string[]>) => Object.fromEntries(Object.entries(t).map(([p, m]) => [p, [...m].sort()]).sort());

describe("the API route table of the 405 answers", () => {
  it("lists every route module under app/api/v1 with exactly the methods it exports", async () => {
    const fromApp: Record<string, string[]> = {};
    for (const op of await routeOperations()) (fromApp[op.path.slice("/api/v1".length)] ??= []).push(op.method);
    expect(sorted(API_V1_ROUTES)).toEqual(sorted(fromApp));
  }, 120_000);

  it("lists every route module of the hosted checkout (app/checkout) with exactly the methods it exports", async () => {
    const fromApp: Record<string, string[]> = {};
    for (const op of await routeOperations(CHECKOUT_ROOT, "")) (fromApp[op.path] ??= []).push(op.method);
    expect(Object.keys(fromApp).length).toBeGreaterThan(3);
    expect(sorted(CHECKOUT_ROUTES)).toEqual(sorted(fromApp));
  }, 120_000);

  it("gives /v1 the same paths but the PSP's, plus status and balance/available", () => {
    const psp = Object.keys(API_V1_ROUTES).filter((p) => p.startsWith("/psp/"));
    expect(psp.length).toBeGreaterThan(0);
    for (const p of psp) expect(V1_ROUTES[p]).toBeUndefined();
    expect(V1_ROUTES["/status"]).toEqual(["GET"]);
    expect(V1_ROUTES["/balance/available"]).toEqual(["GET"]);
    expect(Object.keys(V1_ROUTES).length).toBe(Object.keys(API_V1_ROUTES).length - psp.length + 2);
  });

  it("matches literal segments before parameters, adds HEAD with GET and OPTIONS always, and knows no other path", () => {
    expect(allowedMethodsOf("/api/v1/cashOut/request")).toEqual(["POST", "OPTIONS"]);
    expect(allowedMethodsOf("/api/v1/cashOut/42")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethodsOf("/api/v1/transactions/")).toEqual(["GET", "POST", "HEAD", "OPTIONS"]);
    expect(allowedMethodsOf("/v1/transactions/9/refund")).toEqual(["POST", "OPTIONS"]);
    expect(allowedMethodsOf("/v1/psp/api-pix/abc")).toBeNull();
    expect(allowedMethodsOf("/api/v1/nope")).toBeNull();
    expect(allowedMethodsOf("/checkout/abc/pay")).toEqual(["POST", "OPTIONS"]);
    expect(allowedMethodsOf("/checkout/abc/status")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethodsOf("/checkout/abc")).toBeNull(); // the page: Next answers it
    expect(allowedMethodsOf("/dashboard")).toBeNull();
    expect(allowedMethodsOf("/api/v1")).toBeNull();
  });
});
