/**
 * Abuse protections against the built app as real processes: on PostgreSQL two instances share one
 * database (their counts must add up), on PGlite one instance. Requests leave from different loopback
 * addresses (127.0.0.2, 127.0.0.3...) so the server sees different peers, as it would different clients.
 *
 * - TRACE and unknown methods: 405 with Allow and the error body (TRACE used to be a 500), a known API
 *   path's own Allow on it;
 * - a known API path with a method its route does not take: 405 with the route's Allow and the error body;
 * - an API path with a trailing slash is served as without it (Next used to answer a 308 in plain text);
 *   pages keep Next's redirect;
 * - a path with a malformed percent-escape (%FF, %C3 alone, %ZZ): the route's 401/404 in the error body
 *   with X-Request-Id and a log line, or the checkout's not-found page (Next used to answer a bare 500);
 * - X-Forwarded-For from a client is ignored (no TRUSTED_PROXIES): rotating it escapes no limit;
 * - card tokenization per address, counted across instances;
 * - sign-in: a stranger's wrong passwords lock the stranger out, not the owner, on either instance;
 * - sign-out ends the session: the copied cookie stops working, on either instance.
 *
 * Needs a build: NEXT_DIST_DIR=.next-<name> node scripts/ensure-build.mjs, same NEXT_DIST_DIR for vitest.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { PUBLIC_LIMITS } from "@/lib/http/public-limits";
import { LOGIN_LIMITS } from "@/lib/auth/throttle";

const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);
const PORTS = [3160, 3161];

let db: TestDatabase;
const apps: AppProcess[] = [];

type Res = { status: number; headers: http.IncomingHttpHeaders; text: string; json: any; cookies: Record<string, string> };

/** One HTTP request from a chosen loopback address (the peer the server sees). */
function request(
  app: AppProcess,
  method: string,
  path: string,
  opts: { from?: string; headers?: Record<string, string>; body?: string; cookies?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookies && Object.keys(opts.cookies).length) {
    headers.cookie = Object.entries(opts.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
  }
  if (opts.body !== undefined) headers["content-length"] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: app.port, method, path, headers, localAddress: opts.from ?? "127.0.0.1" },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          const cookies: Record<string, string> = {};
          for (const c of res.headers["set-cookie"] ?? []) {
            const [pair] = c.split(";");
            const i = pair.indexOf("=");
            cookies[pair.slice(0, i)] = pair.slice(i + 1);
          }
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, cookies });
        });
      },
    );
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const instance = (i: number) => apps[i % apps.length];

/** Signs in through next-auth's credentials endpoint; returns the cookies (session cookie on success) and where it sent us. */
async function signIn(app: AppProcess, from: string, email: string, password: string) {
  const csrf = await request(app, "GET", "/api/auth/csrf", { from });
  const body = new URLSearchParams({ csrfToken: csrf.json.csrfToken, email, password, callbackUrl: "/dashboard" }).toString();
  const res = await request(app, "POST", "/api/auth/callback/credentials", {
    from,
    body,
    cookies: csrf.cookies,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  return { location: String(res.headers.location ?? ""), cookies: { ...csrf.cookies, ...res.cookies } };
}

const SESSION = "next-auth.session-token";

beforeAll(async () => {
  db = await createServerDatabase();
  const env = { ...db.env, DEMO_MERCHANT: "true", BACKGROUND_JOBS: "off", RATE_LIMIT_BURST: "100000", RATE_LIMIT_PER_SECOND: "100000" };
  // Started one after the other: the first migrates and creates the demo merchant.
  for (let i = 0; i < (onPostgres ? 2 : 1); i++) apps.push(await startApp({ port: PORTS[i], env }));
}, 180_000);

afterAll(async () => {
  for (const a of apps) await a.stop();
  await db?.drop();
}, 60_000);

describe(`abuse protections on the running app (${onPostgres ? "two instances, PostgreSQL" : "one instance, PGlite"})`, () => {
  it("answers TRACE and unknown methods with 405, an Allow header and the error body, on API and pages", async () => {
    for (const method of ["TRACE", "PROPFIND", "FOO"]) {
      for (const path of ["/api/v1/company", "/api/v1/nope", "/dashboard", "/"]) {
        const res = await request(instance(0), method, path, { headers: { authorization: `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}` } });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(405);
        // A known API path: its own methods, as a PATCH there gets; elsewhere every method the server serves.
        expect(res.headers.allow, `${method} ${path}`).toBe(path === "/api/v1/company" ? "GET, HEAD, OPTIONS" : "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
        expect(res.json).toMatchObject({ success: false, status: 405, code: "method_not_allowed" });
        // TRACE must not echo the request (the credentials) back.
        expect(res.text).not.toContain(DEMO.secretKey);
      }
    }
    expect((await request(instance(0), "GET", "/api/v1/health")).status).toBe(200);
  });

  it("answers a known API path asked with a method it does not take with 405, the route's Allow and the error body", async () => {
    const auth = { authorization: `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}` };
    const cases: [string, string, string][] = [
      ["POST", "/api/v1/balance", "GET, HEAD, OPTIONS"],
      ["DELETE", "/api/v1/transactions/1", "GET, HEAD, OPTIONS"],
      ["PATCH", "/api/v1/cashOut/request", "POST, OPTIONS"],
      ["PUT", "/api/v1/checkouts?page=2", "GET, POST, HEAD, OPTIONS"],
      ["POST", "/v1/balance/available", "GET, HEAD, OPTIONS"],
      ["DELETE", "/v1/transactions/7/refund", "POST, OPTIONS"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await request(instance(0), method, path, { headers: auth });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.json).toMatchObject({ success: false, status: 405, code: "method_not_allowed" });
      expect(res.json.message).toContain(method);
    }
    // The methods the routes take still reach them; an unknown path is still the API's 404.
    expect((await request(instance(0), "GET", "/api/v1/balance", { headers: auth })).status).toBe(200);
    expect((await request(instance(0), "GET", "/v1/balance/available", { headers: auth })).status).toBe(200);
    expect((await request(instance(0), "POST", "/api/v1/nope", { headers: auth })).status).toBe(404);
  });

  it("serves an API path with a trailing slash as the path without it, in the API's bodies; pages keep their redirect", async () => {
    const auth = { authorization: `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`, "content-type": "application/json" };
    const body = JSON.stringify({
      paymentMethod: "pix",
      amount: 1990,
      customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
      items: [{ title: "Curso", unitPrice: 1990, quantity: 1, tangible: false }],
    });
    const created = await request(instance(0), "POST", "/api/v1/transactions/", { headers: auth, body });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ success: true, status: 201, data: { amount: 1990, status: "pending" } });
    const id = created.json.data.id as number;
    const read = await request(instance(0), "GET", `/api/v1/transactions/${id}/?x=1`, { headers: auth });
    expect(read.status, read.text).toBe(200);
    expect(read.json.data.id).toBe(id);
    const v1 = await request(instance(0), "POST", "/v1/transactions/", { headers: auth, body });
    expect(v1.status, v1.text).toBe(201);
    expect(v1.json).toMatchObject({ amount: 1990, status: "pending" });
    // Errors too: the one error body, never a redirect.
    const anonymous = await request(instance(0), "GET", "/api/v1/company/");
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ success: false, status: 401, code: "unauthorized" });
    const wrongMethod = await request(instance(0), "DELETE", "/api/v1/transactions/", { headers: auth });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    // Pages keep Next's redirect to the path without the slash.
    for (const path of ["/dashboard/", "/login/"]) {
      const page = await request(instance(0), "GET", path);
      expect(page.status, path).toBe(308);
      expect(page.headers.location, path).toBe(path.slice(0, -1));
    }
  });

  it("answers a path with a malformed percent-escape as the path naming those characters: 401/404 in the error body, logged; the checkout's not-found page", async () => {
    const auth = { authorization: `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`, "content-type": "application/json" };
    const cases: [string, string, Record<string, string>, number, string][] = [
      ["GET", "/api/v1/transactions/%FF", auth, 404, "not_found"],
      ["GET", "/api/v1/cashOut/%C3", auth, 404, "not_found"],
      ["GET", "/v1/transactions/%FF", auth, 404, "not_found"],
      ["GET", "/api/v1/transactions/%ZZ", auth, 404, "not_found"],
      ["GET", "/api/v1/nope%FF", auth, 404, "not_found"],
      ["POST", "/api/v1/transactions/%FF/refund", auth, 404, "not_found"],
      ["POST", "/v1/transactions/%FF/refund", auth, 404, "not_found"],
      ["GET", "/api/v1/transactions/%FF", {}, 401, "unauthorized"],
      ["POST", "/api/v1/transactions/%FF/refund", { "content-type": "application/json" }, 401, "unauthorized"],
    ];
    for (const [method, path, headers, status, code] of cases) {
      const res = await request(instance(0), method, path, { headers, body: method === "POST" ? "{}" : undefined });
      const what = `${method} ${path} ${headers.authorization ? "with" : "without"} a key: ${res.text.slice(0, 200)}`;
      expect(res.status, what).toBe(status);
      expect(res.headers["content-type"], what).toContain("application/json");
      expect(res.json, what).toMatchObject({ success: false, status, code });
      const requestId = String(res.headers["x-request-id"]);
      expect(res.json.requestId, what).toBe(requestId);
      // The request is logged under its id.
      await expect.poll(() => instance(0).logs().includes(requestId), { timeout: 5_000 }).toBe(true);
    }
    // The hosted checkout: its own "payment not found" page, in Portuguese.
    for (const path of ["/checkout/%FF", "/checkout/%C3", "/checkout/%ZZ"]) {
      const res = await request(instance(0), "GET", path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"], path).toContain("text/html");
      expect(res.text, path).toContain("Pagamento não encontrado");
      expect(res.headers["content-security-policy"], path).toBeDefined();
    }
  });

  it("counts card tokenizations per address across instances, whatever X-Forwarded-For says", async () => {
    const from = "127.0.0.2";
    const card = JSON.stringify({ number: "4111111111111111", holderName: "MARIA SILVA", expirationMonth: "12", expirationYear: "2031", cvv: "123" });
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_LIMITS.cardTokenPerAddress.points + 3; i++) {
      const res = await request(instance(i), "POST", `/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
        from,
        body: card,
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.json).toMatchObject({ success: false, status: 429, code: "rate_limited" });
        expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(PUBLIC_LIMITS.cardTokenPerAddress.points);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    // Another client is not affected.
    const other = await request(instance(1), "POST", `/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
      from: "127.0.0.3",
      body: card,
      headers: { "content-type": "application/json" },
    });
    expect(other.status, other.text).toBe(200);
  });

  it("locks a stranger guessing the owner's password out, on every instance, and never the owner", async () => {
    const stranger = "127.0.0.4";
    const owner = "127.0.0.5";
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress; i++) {
      const r = await signIn(instance(i), stranger, DEMO.email, `wrong-${i}`);
      expect(r.location).toContain("error=CredentialsSignin");
    }
    for (let i = 0; i < apps.length; i++) {
      // Even the right password, from the stranger's address (a spoofed X-Forwarded-For does not help).
      const r = await signIn(instance(i), stranger, DEMO.email, DEMO.password);
      expect(r.location).toMatch(/error=throttled(%3A|:)\d+/);
      expect(r.cookies[SESSION]).toBeUndefined();
    }
    for (let i = 0; i < apps.length; i++) {
      const r = await signIn(instance(i), owner, DEMO.email, DEMO.password);
      expect(r.cookies[SESSION], r.location).toBeTruthy();
    }
  });

  it("ends the session at sign-out: a copied cookie no longer opens the dashboard on any instance", async () => {
    const from = "127.0.0.6";
    const { cookies } = await signIn(instance(0), from, DEMO.email, DEMO.password);
    expect(cookies[SESSION]).toBeTruthy();
    const copied = { [SESSION]: cookies[SESSION] };
    for (let i = 0; i < apps.length; i++) {
      const page = await request(instance(i), "GET", "/dashboard", { from, cookies: copied });
      expect(page.status, `instance ${i} before sign-out`).toBe(200);
      const session = await request(instance(i), "GET", "/api/auth/session", { from, cookies: copied });
      expect(session.json?.user?.email, `instance ${i} before sign-out`).toBe(DEMO.email);
    }
    const csrf = await request(instance(0), "GET", "/api/auth/csrf", { from, cookies });
    const out = await request(instance(0), "POST", "/api/auth/signout", {
      from,
      cookies: { ...cookies, ...csrf.cookies },
      body: new URLSearchParams({ csrfToken: csrf.json.csrfToken, callbackUrl: "/login" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(out.status).toBeLessThan(400);
    for (let i = 0; i < apps.length; i++) {
      const page = await request(instance(i), "GET", "/dashboard", { from, cookies: copied });
      expect(page.status, `instance ${i} after sign-out`).toBe(307);
      expect(String(page.headers.location)).toContain("/login");
      // next-auth's own session endpoint says the same: no session, and the cookie is cleared rather
      // than re-issued for another working day.
      const session = await request(instance(i), "GET", "/api/auth/session", { from, cookies: copied });
      expect(session.json, `instance ${i} after sign-out`).toEqual({});
      expect(session.cookies[SESSION], `instance ${i}: the session cookie is cleared`).toBe("");
    }
    // Signing in again gives a working session.
    const again = await signIn(instance(0), from, DEMO.email, DEMO.password);
    expect((await request(instance(0), "GET", "/dashboard", { from, cookies: { [SESSION]: again.cookies[SESSION] } })).status).toBe(200);
  });

  it("answers a statement page with a bad cursor with the first page (same filters), not a 500", async () => {
    const from = "127.0.0.7";
    const { cookies } = await signIn(instance(0), from, DEMO.email, DEMO.password);
    const session = { [SESSION]: cookies[SESSION] };
    // Cursors the query schema takes but that are no cursor of ours ("abc", "123" in base64url), and junk.
    for (const cursor of ["YWJj", "MTIz", "garbage", "%00", "x".repeat(500)]) {
      const res = await request(instance(0), "GET", `/dashboard/statement?account=all&cursor=${cursor}`, { from, cookies: session });
      expect(res.status, `cursor ${cursor.slice(0, 20)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      // The first page: an HTTP redirect to it, or (once the page has started streaming) Next's
      // in-page redirect, or the first page itself when the query schema already dropped the cursor.
      if (res.status === 307) expect(String(res.headers.location)).toMatch(/\/dashboard\/statement\?account=all$/);
      else {
        expect(res.status).toBe(200);
        expect(res.text).toMatch(/NEXT_REDIRECT|\/dashboard\/statement\?account=all|Extrato/);
      }
    }
    const first = await request(instance(0), "GET", "/dashboard/statement?account=all", { from, cookies: session });
    expect(first.status).toBe(200);
  });
});
