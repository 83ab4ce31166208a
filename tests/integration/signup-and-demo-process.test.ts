/**
 * Starting the built app in production (`next start`, NODE_ENV=production) as an operator would:
 *
 * - a fresh database gets no demo merchant (its keys and password are published in the README), the
 *   home page shows no key, sign-up is closed (the page says the operator creates accounts, the login
 *   and home pages do not link to it), and the log says BASE_URL is not set;
 * - DEMO_MERCHANT=true gives the demo (with a warning); restarted without it the demo is disabled: its
 *   secret key answers 401, its password no longer signs in, its open session ends; on again, it works;
 * - on the embedded database, BACKGROUND_JOBS=off stops the start with a sentence and exit status 1.
 *
 * Needs a build: NEXT_DIST_DIR=.next-<name> node scripts/ensure-build.mjs, same NEXT_DIST_DIR for vitest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";

const onPostgres = Boolean(process.env.ARARA_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL);
const SESSION = "next-auth.session-token";
const demoAuth = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;

let db: TestDatabase;
let app: AppProcess | undefined;

function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

/** Signs in through next-auth's credentials endpoint; the session cookie is there on success. */
async function signIn(a: AppProcess, email: string, password: string): Promise<Record<string, string>> {
  const csrf = await fetch(`${a.url}/api/auth/csrf`);
  const cookies = cookiesOf(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${a.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(cookies) },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: "/dashboard" }).toString(),
  });
  await res.text();
  return { ...cookies, ...cookiesOf(res) };
}

const companyStatus = async (a: AppProcess) => (await fetch(`${a.url}/api/v1/company`, { headers: { authorization: demoAuth } })).status;
const page = async (a: AppProcess, p: string) => (await fetch(`${a.url}${p}`)).text();
const dashboardStatus = async (a: AppProcess, session: string) =>
  (await fetch(`${a.url}/dashboard`, { redirect: "manual", headers: { cookie: `${SESSION}=${session}` } })).status;

async function start(env: Record<string, string>) {
  app = await startApp({ env: { ...db.env, ...env } });
  return app;
}

async function stop() {
  await app?.stop();
  app = undefined;
}

beforeAll(async () => {
  db = await createServerDatabase();
}, 60_000);

afterAll(async () => {
  await stop();
  await db?.drop();
}, 60_000);

describe(`production start (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it("a fresh database has no demo merchant, sign-up is closed, and the log asks for BASE_URL", async () => {
    // DEMO_MERCHANT and SIGNUP unset ("" is unset), BASE_URL unset: what `npm start` gets by default.
    const a = await start({ DEMO_MERCHANT: "", SIGNUP: "", BASE_URL: "" });
    expect(await companyStatus(a)).toBe(401);
    const home = await page(a, "/");
    expect(home).not.toContain(DEMO.secretKey);
    expect(home).not.toContain('href="/signup"');
    const signup = await page(a, "/signup");
    expect(signup).toContain("Cadastro fechado");
    expect(signup).toContain("novas contas são criadas pelo operador do servidor (com npm run account:create)");
    expect(signup).not.toContain("<form");
    const login = await page(a, "/login");
    expect(login).not.toContain('href="/signup"');
    expect(login).not.toContain(DEMO.password);
    expect(a.logs()).toContain("BASE_URL is not set");
    expect((await signIn(a, DEMO.email, DEMO.password))[SESSION]).toBeUndefined();
    await stop();

    // SIGNUP=open opens it again.
    const b = await start({ DEMO_MERCHANT: "", SIGNUP: "open" });
    expect(await page(b, "/signup")).toContain("<form");
    expect(await page(b, "/login")).toContain('href="/signup"');
    expect(b.logs()).not.toContain("BASE_URL is not set");
    await stop();
  }, 180_000);

  it("DEMO_MERCHANT=true gives the demo; a start without it disables its key, login and session; on again restores them", async () => {
    let a = await start({ DEMO_MERCHANT: "true" });
    expect(await companyStatus(a)).toBe(200);
    expect(await page(a, "/")).toContain(DEMO.secretKey);
    expect(a.logs()).toContain("the demo merchant is on");
    const session = (await signIn(a, DEMO.email, DEMO.password))[SESSION];
    expect(session).toBeTruthy();
    expect(await dashboardStatus(a, session)).toBe(200);
    await stop();

    a = await start({ DEMO_MERCHANT: "" });
    expect(await companyStatus(a)).toBe(401);
    expect(await page(a, "/")).not.toContain(DEMO.secretKey);
    expect((await signIn(a, DEMO.email, DEMO.password))[SESSION]).toBeUndefined();
    expect(await dashboardStatus(a, session)).toBe(307);
    expect(a.logs()).toContain("demo merchant disabled");
    await stop();

    a = await start({ DEMO_MERCHANT: "true" });
    expect(await companyStatus(a)).toBe(200);
    const again = (await signIn(a, DEMO.email, DEMO.password))[SESSION];
    expect(again).toBeTruthy();
    expect(await dashboardStatus(a, again)).toBe(200);
    await stop();
  }, 240_000);

  it.skipIf(onPostgres)("BACKGROUND_JOBS=off on the embedded database stops the start with a sentence naming it, exit 1", async () => {
    // The suite's own escape (tests/setup/database.ts) is what an operator does not have.
    const failed = await start({ BACKGROUND_JOBS: "off", TEST_ALLOW_JOBS_OFF_ON_PGLITE: "" }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/^app exited with 1:/);
    expect(failed).toContain("arara cannot start: Invalid configuration: BACKGROUND_JOBS can be off only with PostgreSQL (DATABASE_URL)");
  }, 120_000);
});
