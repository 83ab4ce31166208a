/**
 * The checkout's Content-Security-Policy by mode: strict in production (nonces only, no eval, no
 * inline styles); relaxed in development only as far as Next's dev overlay needs (it evaluates code
 * and inserts <style> elements without the nonce: 33 console errors per load before). Scripts keep
 * their nonce in both. The production policy is also checked on the built app in
 * security-process.test.ts and by the browser tests' CSP-violation watch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { checkoutProxy } from "@/lib/security/checkout-headers";

const env = process.env as Record<string, string | undefined>;
const before = env.NODE_ENV;
afterEach(() => {
  env.NODE_ENV = before;
});

function policy(mode: "production" | "development"): Map<string, string> {
  env.NODE_ENV = mode;
  const res = checkoutProxy(new NextRequest("http://localhost:3000/checkout/abc123"));
  const csp = res.headers.get("content-security-policy") ?? "";
  return new Map(csp.split(";").map((d) => d.trim().split(/\s+(.*)/s) as [string, string]).map(([k, v]) => [k, v ?? ""]));
}

describe("checkout CSP", () => {
  it("production: scripts and styles by nonce only, no eval, no inline styles", () => {
    const p = policy("production");
    expect(p.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'$/);
    expect(p.get("style-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+'$/);
    expect([...p.keys()].filter((k) => k.startsWith("style-src-"))).toEqual([]);
    expect([...p.values()].join(" ")).not.toMatch(/unsafe-/);
    expect(p.get("frame-ancestors")).toBe("'none'");
    expect(p.get("object-src")).toBe("'none'");
  });

  it("development: eval and inline styles for Next's dev overlay, scripts still by nonce, the rest unchanged", () => {
    const dev = policy("development");
    const prod = policy("production");
    expect(dev.get("script-src")).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic' 'unsafe-eval'$/);
    // No nonce beside 'unsafe-inline': browsers ignore 'unsafe-inline' when a nonce is present.
    expect(dev.get("style-src")).toBe("'self' 'unsafe-inline'");
    for (const k of ["default-src", "img-src", "font-src", "connect-src", "object-src", "base-uri", "form-action", "frame-ancestors"]) {
      expect(dev.get(k), k).toBe(prod.get(k));
    }
  });
});

describe("the page's language for the root layout's <html lang>", () => {
  const langOf = (url: string, cookie?: string) =>
    checkoutProxy(new NextRequest(url, { headers: cookie ? { cookie } : {} })).headers.get("x-middleware-request-x-arara-page-lang");
  it("English when chosen by ?lang=en or by the payer's cookie; otherwise none, even when a client sends it", () => {
    expect(langOf("http://localhost:3000/checkout/abc123?lang=en")).toBe("en");
    expect(langOf("http://localhost:3000/checkout/abc123", "checkout_lang=en")).toBe("en");
    expect(langOf("http://localhost:3000/checkout/abc123?lang=pt", "checkout_lang=en")).toBeNull();
    // The page's own rule: any case, a region after it.
    expect(langOf("http://localhost:3000/checkout/abc123?lang=EN-us")).toBe("en");
    expect(langOf("http://localhost:3000/checkout/abc123?lang=PT-br", "checkout_lang=en")).toBeNull();
    expect(langOf("http://localhost:3000/checkout/abc123")).toBeNull();
    // A client's own header does not reach the layout: Next keeps only the headers the proxy passes on.
    const forged = checkoutProxy(new NextRequest("http://localhost:3000/checkout/abc123", { headers: { "x-arara-page-lang": "en" } }));
    expect(forged.headers.get("x-middleware-request-x-arara-page-lang")).toBeNull();
    expect(forged.headers.get("x-middleware-override-headers")?.split(",")).not.toContain("x-arara-page-lang");
  });
});
