import { isIP } from "node:net";
import { z } from "zod";

/**
 * All configuration, parsed once. A bad value stops start-up with a sentence naming the variable.
 * Read through getEnv(), never process.env elsewhere.
 */
const bool = (def: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return def;
      const s = v.toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `must be true or false, got "${v}"` });
      return z.NEVER;
    });

/** digitsOnly: as Next reads PORT (parseInt), so "1e3" or " 80" are refused rather than read otherwise. */
const int = (def: number, min: number, max: number, digitsOnly = false) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max || (digitsOnly && !/^\d+$/.test(v))) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/**
 * Webhook retry schedule: delays in seconds before each attempt, comma-separated; the list length is
 * the number of attempts. The first is the immediate attempt (0). Default: the schedule of docs/api.md, Webhooks.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "0,5,300,1800,7200,18000,36000,36000";
const retrySchedule = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const text = v === undefined || v.trim() === "" ? DEFAULT_WEBHOOK_RETRY_SCHEDULE : v;
    const parts = text.split(",").map((p) => p.trim());
    const seconds = parts.map(Number);
    if (parts.some((p) => p === "") || seconds.some((n) => !Number.isFinite(n) || n < 0 || n > 7 * 86_400)) {
      ctx.addIssue({ code: "custom", message: `must be a comma-separated list of seconds such as "0,5,300", got "${v}"` });
      return z.NEVER;
    }
    if (seconds.length > 50 || seconds[0] !== 0) {
      ctx.addIssue({ code: "custom", message: `must start with 0 (the immediate first attempt) and list at most 50 attempts, got "${v}"` });
      return z.NEVER;
    }
    return seconds.map((s) => Math.round(s * 1000));
  });

const httpUrl = z
  .string()
  .refine((u) => /^https?:\/\/[^/\s]+/i.test(u) && URL.canParse(u), {
    message: "must be an absolute http:// or https:// URL such as http://localhost:3000",
  })
  .transform((u) => u.replace(/\/+$/, ""));

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: "must be a postgres:// or postgresql:// URL (leave it unset for the embedded database)",
    }),
  PGLITE_DIR: z.string().default(".data/pglite"),
  // Also checked before Next binds it, by scripts/check-port.mjs (npm start): keep the two in step.
  PORT: int(3000, 1, 65535, true),
  // Empty is unset (.env.example's "BASE_URL=" line): the default below.
  BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), httpUrl.optional()),
  CHECKOUT_URL: z.preprocess((v) => (v === "" ? undefined : v), httpUrl.optional()),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.string().optional(),
  KEY_ENCRYPTION_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || v.length >= 32, {
      message: "must be at least 32 characters (for example the output of `openssl rand -base64 32`)",
    }),
  WEBHOOK_DISPATCHER: bool(true),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  WEBHOOK_TIMEOUT_MS: int(10_000, 50, 120_000),
  WEBHOOK_CONCURRENCY: int(64, 1, 256),
  BACKGROUND_JOBS: bool(true),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_POOL_SIZE: int(10, 1, 1000),
  /** -1: unset (the default depends on the database: Env.heapGrowthPercent). */
  HEAP_GROWTH_PERCENT: int(-1, 0, 400),
  PGLITE_OPTIMIZING_COMPILER: bool(false),
  RATE_LIMIT_PER_SECOND: int(100, 1, 1_000_000),
  RATE_LIMIT_BURST: int(200, 1, 10_000_000),
  CARD_TOKEN_LIMIT_PER_KEY: int(600, 1, 10_000_000),
  CARD_TOKEN_LIMIT_PER_ADDRESS: int(60, 1, 10_000_000),
  CHECKOUT_LIMIT_PER_ADDRESS: int(120, 1, 10_000_000),
  CARD_SETTLEMENT_DAYS: int(30, 0, 365),
  SANDBOX_PSP_DELAY_MS: int(1500, 0, 3_600_000),
  DEMO_MERCHANT: z.string().optional(),
  SIGNUP: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const s = v.trim().toLowerCase();
      if (s === "open" || s === "closed") return s;
      ctx.addIssue({ code: "custom", message: `must be open or closed, got "${v}"` });
      return z.NEVER;
    }),
  /**
   * Tests only: lets the test suite start an app with BACKGROUND_JOBS or WEBHOOK_DISPATCHER off on the
   * embedded database (it stops that app before a worker opens the database). Refused otherwise.
   */
  TEST_ALLOW_JOBS_OFF_ON_PGLITE: bool(false),
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parts = (v ?? "").split(",").map((p) => p.trim()).filter(Boolean);
      const bad = parts.filter((p) => !isAddressOrCidr(p));
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `must be a comma-separated list of IP addresses or CIDR ranges such as "10.0.0.0/8, ::1", got "${bad[0]}"` });
        return z.NEVER;
      }
      return parts;
    }),
  /** Enables /api/bench-baseline (npm run bench's ceiling: one bare insert); off everywhere else. */
  BENCH_BASELINE: bool(false),
  /** SMTP server for the payer's e-mail receipt (smtp:// or smtps://, credentials in the URL); unset: no e-mail. */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine((v) => v === undefined || (/^smtps?:\/\/[^/\s]+/i.test(v) && URL.canParse(v)), { message: "must be an smtp:// or smtps:// URL" }),
  MAIL_FROM: z.string().trim().min(3).max(200).default("Arara <nao-responda@localhost>"),
});

/** "10.1.2.3", "::1", "10.0.0.0/8" or "fd00::/8". */
function isAddressOrCidr(text: string): boolean {
  const [address, prefix, extra] = text.split("/");
  const kind = isIP(address ?? "");
  if (!kind || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128);
}

export type Env = {
  nodeEnv: "development" | "production" | "test";
  databaseUrl: string | undefined;
  database: "pglite" | "postgres";
  pgliteDir: string;
  port: number;
  baseUrl: string;
  checkoutUrl: string;
  webhookAllowPrivateUrls: boolean;
  keyEncryptionSecret: string | undefined;
  webhookDispatcher: boolean;
  /** Delay before each delivery attempt, in ms; length = number of attempts before `failed`. */
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  /** Deliveries in flight at once per process (different transactions; one per transaction). */
  webhookConcurrency: number;
  backgroundJobs: boolean;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  databasePoolSize: number;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Per minute: card tokenizations per public key, per address; checkout pay/simulate per address. */
  cardTokenLimitPerKey: number;
  cardTokenLimitPerAddress: number;
  checkoutLimitPerAddress: number;
  cardSettlementDays: number;
  sandboxPspDelayMs: number;
  /** The demo merchant is on: created (or enabled again) at start, its key shown on the home page. */
  demoMerchant: boolean;
  /**
   * An existing demo merchant is disabled at start (its secret keys revoked, its logins blocked):
   * DEMO_MERCHANT=false, or unset in production. False with the demo on, and on PostgreSQL outside
   * production with DEMO_MERCHANT unset (a demo made by `npm run db:seed` is left as it is).
   */
  disableDemoMerchant: boolean;
  /** Anyone may create an account at /signup (SIGNUP=open); closed: accounts come from `npm run account:create`. */
  signupOpen: boolean;
  /** Settings that start but are probably wrong (production without BASE_URL), logged at start. */
  warnings: string[];
  benchBaseline: boolean;
  /**
   * Addresses and CIDR ranges of the reverse proxies in front of the app. Only a request whose peer is
   * one of them may say who the client is (X-Forwarded-For); empty: no one, the peer is the client.
   */
  trustedProxies: string[];
  /** SMTP server of the payer's receipts; undefined: no e-mail is sent. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * How much V8 lets the JavaScript heap grow past what survived its last full collection, in percent
   * (V8's --heap-growing-percent); 0 leaves V8's own factor (up to 4 ×). 50 on the embedded database,
   * whose process also holds PostgreSQL's memory; 0 on PostgreSQL (lib/server-start.ts).
   */
  heapGrowthPercent: number;
  /** Whether V8 may compile the embedded database's hot WebAssembly functions a second time, optimized (V8's own tiering); false keeps its baseline code only (--liftoff-only). */
  pgliteOptimizingCompiler: boolean;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".") || "environment"} ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}.`);
  }
  const e = parsed.data;
  const database = e.DATABASE_URL ? "postgres" : "pglite";
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  const production = e.NODE_ENV === "production";
  let allowPrivate = !production;
  if (e.WEBHOOK_ALLOW_PRIVATE_URLS !== undefined && e.WEBHOOK_ALLOW_PRIVATE_URLS !== "") {
    const r = bool(false).safeParse(e.WEBHOOK_ALLOW_PRIVATE_URLS);
    if (!r.success) {
      throw new ConfigError(
        `Invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS must be true or false, got "${e.WEBHOOK_ALLOW_PRIVATE_URLS}".`,
      );
    }
    allowPrivate = r.data;
  }
  const secret = e.KEY_ENCRYPTION_SECRET || undefined;
  // The embedded database generates and keeps its own secret beside it; a PostgreSQL database is shared
  // by every process that opens it (apps, workers, scripts), so its secret must come from the operator,
  // in every mode: a script that generated one of its own would write secrets no server can decrypt.
  if (database === "postgres" && !secret) {
    throw new ConfigError(
      "Invalid configuration: KEY_ENCRYPTION_SECRET is required with DATABASE_URL (at least 32 characters, e.g. `openssl rand -base64 32`), the same for the apps, the worker and the scripts.",
    );
  }
  // The embedded database is one process's: no worker can open it while the app runs, so the app
  // must run the loops itself (webhook delivery, cash-out progress, upkeep) or they never run.
  if (database === "pglite" && !e.TEST_ALLOW_JOBS_OFF_ON_PGLITE) {
    for (const [name, on] of [["BACKGROUND_JOBS", e.BACKGROUND_JOBS], ["WEBHOOK_DISPATCHER", e.WEBHOOK_DISPATCHER]] as const) {
      if (!on) {
        throw new ConfigError(
          `Invalid configuration: ${name} can be off only with PostgreSQL (DATABASE_URL): on the embedded database no other process can open the database while the app holds it, so \`npm run worker\` cannot take over and ${name === "WEBHOOK_DISPATCHER" ? "webhooks would never be delivered" : "webhooks, cash-outs and the database upkeep would never run"}. Remove ${name} or set it to true.`,
        );
      }
    }
  }
  // The demo merchant's keys and password are published: on by default only on the embedded database
  // outside production (README's quick start, `npm run dev`); in production only when asked for.
  let demo = database === "pglite" && !production;
  let demoSet = false;
  if (e.DEMO_MERCHANT !== undefined && e.DEMO_MERCHANT !== "") {
    const r = bool(false).safeParse(e.DEMO_MERCHANT);
    if (!r.success) throw new ConfigError(`Invalid configuration: DEMO_MERCHANT must be true or false, got "${e.DEMO_MERCHANT}".`);
    demo = r.data;
    demoSet = true;
  }
  const warnings: string[] = [];
  if (production && !e.BASE_URL) {
    warnings.push(
      `BASE_URL is not set: payers' links (secureUrl) and the API's own URLs say ${baseUrl}, which only this machine can open. Set BASE_URL to the public https:// address of this server (and CHECKOUT_URL if the checkout has a host of its own).`,
    );
  }
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    database,
    pgliteDir: e.PGLITE_DIR,
    port: e.PORT,
    baseUrl,
    checkoutUrl: e.CHECKOUT_URL ?? baseUrl,
    webhookAllowPrivateUrls: allowPrivate,
    keyEncryptionSecret: secret,
    webhookDispatcher: e.WEBHOOK_DISPATCHER,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    backgroundJobs: e.BACKGROUND_JOBS,
    logLevel: e.LOG_LEVEL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    cardTokenLimitPerKey: e.CARD_TOKEN_LIMIT_PER_KEY,
    cardTokenLimitPerAddress: e.CARD_TOKEN_LIMIT_PER_ADDRESS,
    checkoutLimitPerAddress: e.CHECKOUT_LIMIT_PER_ADDRESS,
    cardSettlementDays: e.CARD_SETTLEMENT_DAYS,
    sandboxPspDelayMs: e.SANDBOX_PSP_DELAY_MS,
    demoMerchant: demo,
    disableDemoMerchant: !demo && (demoSet || production),
    signupOpen: (e.SIGNUP ?? (production ? "closed" : "open")) === "open",
    warnings,
    benchBaseline: e.BENCH_BASELINE,
    trustedProxies: e.TRUSTED_PROXIES,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT === -1 ? (database === "pglite" ? 50 : 0) : e.HEAP_GROWTH_PERCENT,
    pgliteOptimizingCompiler: e.PGLITE_OPTIMIZING_COMPILER,
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
