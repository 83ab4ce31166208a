import { spawnSync } from "node:child_process";
import v8 from "node:v8";
import { describe, expect, it, vi } from "vitest";
import { ConfigError, parseEnv } from "@/lib/env";
import { applyV8Flags, heapGrowthFlag, v8Flags } from "@/lib/server-start";

describe("configuration", () => {
  it("defaults to the embedded database on port 3000 with private webhook URLs allowed in development", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      database: "pglite",
      port: 3000,
      baseUrl: "http://localhost:3000",
      checkoutUrl: "http://localhost:3000",
      webhookAllowPrivateUrls: true,
      demoMerchant: true,
    });
  });

  it("uses PostgreSQL when DATABASE_URL is set, with no demo merchant", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" });
    expect(env.database).toBe("postgres");
    expect(env.demoMerchant).toBe(false);
  });

  it("holds the JavaScript heap to 50 % over its live size on the embedded database only, unless HEAP_GROWTH_PERCENT says otherwise", () => {
    expect(parseEnv({}).heapGrowthPercent).toBe(50);
    expect(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" }).heapGrowthPercent).toBe(0);
    expect(parseEnv({ HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
    expect(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef", HEAP_GROWTH_PERCENT: "100" }).heapGrowthPercent).toBe(100);
    // What start-up hands V8: its flag, or nothing for V8's own growth.
    expect(heapGrowthFlag(parseEnv({}).heapGrowthPercent)).toBe("--heap-growing-percent=50");
    expect(heapGrowthFlag(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" }).heapGrowthPercent)).toBeNull();
  });

  it("runs the embedded database's WebAssembly on V8's baseline compiler only, unless PGLITE_OPTIMIZING_COMPILER=true", () => {
    expect(parseEnv({}).pgliteOptimizingCompiler).toBe(false);
    expect(parseEnv({ PGLITE_OPTIMIZING_COMPILER: "true" }).pgliteOptimizingCompiler).toBe(true);
    expect(() => parseEnv({ PGLITE_OPTIMIZING_COMPILER: "sometimes" })).toThrow(/PGLITE_OPTIMIZING_COMPILER/);
    expect(v8Flags(parseEnv({}))).toEqual(["--heap-growing-percent=50", "--liftoff-only"]);
    expect(v8Flags(parseEnv({ PGLITE_OPTIMIZING_COMPILER: "true", HEAP_GROWTH_PERCENT: "0" }))).toEqual([]);
    // On PostgreSQL there is no WebAssembly in the process: neither flag is set unless asked for.
    expect(v8Flags(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" }))).toEqual([]);
    expect(v8Flags(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef", HEAP_GROWTH_PERCENT: "30" }))).toEqual(["--heap-growing-percent=30"]);
  });

  it("every function of the embedded database's WebAssembly compiles with V8's baseline compiler alone", () => {
    // Under --liftoff-only V8 stops the process when its baseline compiler cannot compile a function.
    // Compiling the whole module up front (no lazy compilation) finds such a function at once, not at
    // the first statement that happens to call it in production.
    const script = `import { PGlite } from "@electric-sql/pglite";
      const db = new PGlite("memory://");
      const r = await db.query("select upper($1::text) || sum(x)::numeric(10, 2) as v from generate_series(1, 3) x", ["ok "]);
      console.log(r.rows[0].v); await db.close();`;
    const r = spawnSync(process.execPath, ["--liftoff-only", "--no-wasm-lazy-compilation", "--input-type=module", "-e", script], {
      cwd: process.cwd(),
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.stderr).not.toMatch(/liftoff-only|Fatal/i);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("OK 6.00");
  }, 130_000);

  it("start-up hands each of its flags to V8 and returns what it set", () => {
    const set = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => {}); // not on this test process
    try {
      expect(applyV8Flags(parseEnv({}))).toEqual(["--heap-growing-percent=50", "--liftoff-only"]);
      expect(set.mock.calls).toEqual([["--heap-growing-percent=50"], ["--liftoff-only"]]);
      set.mockClear();
      expect(applyV8Flags(parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" }))).toEqual([]);
      expect(set).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
    }
  });

  it("CHECKOUT_URL defaults to BASE_URL and trailing slashes are dropped", () => {
    expect(parseEnv({ BASE_URL: "https://api.example.com/" }).checkoutUrl).toBe("https://api.example.com");
    expect(parseEnv({ BASE_URL: "https://api.example.com", CHECKOUT_URL: "https://pay.example.com" }).checkoutUrl).toBe(
      "https://pay.example.com",
    );
  });

  it("private webhook URLs are refused by default in production", () => {
    expect(parseEnv({ NODE_ENV: "production" }).webhookAllowPrivateUrls).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_URLS: "true" }).webhookAllowPrivateUrls).toBe(true);
  });

  it("has the demo merchant on by default only on the embedded database outside production; off in production disables an existing one", () => {
    const pg = { DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" };
    const demo = (vars: Record<string, string>) => {
      const e = parseEnv(vars);
      return [e.demoMerchant, e.disableDemoMerchant];
    };
    expect(demo({})).toEqual([true, false]);
    expect(demo({ NODE_ENV: "test" })).toEqual([true, false]);
    expect(demo({ NODE_ENV: "production" })).toEqual([false, true]);
    expect(demo({ NODE_ENV: "production", DEMO_MERCHANT: "true" })).toEqual([true, false]);
    expect(demo({ DEMO_MERCHANT: "false" })).toEqual([false, true]);
    // PostgreSQL outside production, unset: a demo made by `npm run db:seed` is left alone.
    expect(demo(pg)).toEqual([false, false]);
    expect(demo({ ...pg, DEMO_MERCHANT: "false" })).toEqual([false, true]);
    expect(demo({ ...pg, NODE_ENV: "production" })).toEqual([false, true]);
    expect(demo({ ...pg, DEMO_MERCHANT: "true" })).toEqual([true, false]);
  });

  it("sign-up is open by default outside production and closed in production; SIGNUP says otherwise", () => {
    expect(parseEnv({}).signupOpen).toBe(true);
    expect(parseEnv({ NODE_ENV: "production" }).signupOpen).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", SIGNUP: "open" }).signupOpen).toBe(true);
    expect(parseEnv({ SIGNUP: "Closed" }).signupOpen).toBe(false);
  });

  it("warns in production when BASE_URL is not set, saying which variable to set", () => {
    expect(parseEnv({}).warnings).toEqual([]);
    expect(parseEnv({ NODE_ENV: "production", BASE_URL: "https://pay.example.com" }).warnings).toEqual([]);
    const [warning, ...rest] = parseEnv({ NODE_ENV: "production", PORT: "8080" }).warnings;
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^BASE_URL is not set: .*http:\/\/localhost:8080.* Set BASE_URL to the public https:\/\/ address/);
    // Empty is unset, as .env.example says.
    expect(parseEnv({ BASE_URL: "", CHECKOUT_URL: "" })).toMatchObject({ baseUrl: "http://localhost:3000", checkoutUrl: "http://localhost:3000" });
  });

  it("takes the background loops off only on PostgreSQL (or in the test suite, explicitly)", () => {
    const pg = { DATABASE_URL: "postgres://u@h:5432/db", KEY_ENCRYPTION_SECRET: "config-test-secret-0123456789abcdef" };
    expect(parseEnv({ ...pg, BACKGROUND_JOBS: "off", WEBHOOK_DISPATCHER: "false" })).toMatchObject({ backgroundJobs: false, webhookDispatcher: false });
    expect(parseEnv({ BACKGROUND_JOBS: "off", TEST_ALLOW_JOBS_OFF_ON_PGLITE: "true" }).backgroundJobs).toBe(false);
    expect(() => parseEnv({ NODE_ENV: "production", BACKGROUND_JOBS: "off" })).toThrow(
      /^Invalid configuration: BACKGROUND_JOBS can be off only with PostgreSQL \(DATABASE_URL\): .*npm run worker/,
    );
  });

  it.each([
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "1e3" }, "PORT"],
    [{ BACKGROUND_JOBS: "off" }, "BACKGROUND_JOBS"],
    [{ BACKGROUND_JOBS: "false", NODE_ENV: "production" }, "BACKGROUND_JOBS"],
    [{ WEBHOOK_DISPATCHER: "false" }, "WEBHOOK_DISPATCHER"],
    [{ SIGNUP: "maybe" }, "SIGNUP"],
    [{ BASE_URL: "localhost:3000" }, "BASE_URL"],
    [{ CHECKOUT_URL: "ftp://x.example" }, "CHECKOUT_URL"],
    [{ WEBHOOK_ALLOW_PRIVATE_URLS: "maybe" }, "WEBHOOK_ALLOW_PRIVATE_URLS"],
    [{ KEY_ENCRYPTION_SECRET: "short" }, "KEY_ENCRYPTION_SECRET"],
    [{ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" }, "KEY_ENCRYPTION_SECRET"],
    // Not only in production: a script that generated a secret of its own wrote secrets no server could read.
    [{ NODE_ENV: "development", DATABASE_URL: "postgres://u@h/db" }, "KEY_ENCRYPTION_SECRET"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ RATE_LIMIT_PER_SECOND: "-1" }, "RATE_LIMIT_PER_SECOND"],
    [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
    [{ HEAP_GROWTH_PERCENT: "-1" }, "HEAP_GROWTH_PERCENT"],
    [{ HEAP_GROWTH_PERCENT: "half" }, "HEAP_GROWTH_PERCENT"],
  ] as [Record<string, string>, string][])("a bad value stops start-up with a sentence naming the variable: %o", (vars, name) => {
    expect(() => parseEnv(vars)).toThrow(ConfigError);
    expect(() => parseEnv(vars)).toThrow(new RegExp(`^Invalid configuration: .*${name}`));
  });
});
