/**
 * The guides of the OpenAPI document (info.description and the /docs page) say what the code does:
 * figures derived from the configuration they describe, not written by hand.
 */
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { guides, scheduleTotalMs } from "@/lib/openapi/guides";

const env = parseEnv({});

const text = (id: string) => {
  const g = guides(env).find((x) => x.id === id);
  if (!g) throw new Error(`no guide ${id}`);
  return g.paragraphs.join("\n");
};

describe("webhooks guide", () => {
  it("says how long the whole retry schedule lasts, in hours (the default: about 27.6 h)", () => {
    const hours = scheduleTotalMs(env.webhookRetryScheduleMs) / 3_600_000;
    const webhooks = text("webhooks");
    const said = [...webhooks.matchAll(/about ([\d.]+) h\b/g)].map((m) => Number(m[1]));
    expect(said.length).toBeGreaterThanOrEqual(1);
    for (const h of said) expect(Math.abs(h - hours)).toBeLessThan(0.1);
    expect(webhooks).toContain(`${env.webhookRetryScheduleMs.length} attempts`);
  });

  it("the default schedule: 8 attempts over about 27.6 hours (what README and docs/api.md round to 28)", () => {
    expect(env.webhookRetryScheduleMs).toHaveLength(8);
    expect(Math.round(scheduleTotalMs(env.webhookRetryScheduleMs) / 3_600_000)).toBe(28);
    expect(text("webhooks")).toContain("8 attempts: the first at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the previous failure (about 27.6 h in all)");
  });
});

describe("rate-limit guide", () => {
  it("says the counters are shared by every instance (kept in the database), not per instance", () => {
    const rate = text("rate-limit");
    expect(rate).toMatch(/kept in the database and shared by every instance/);
    expect(rate).not.toMatch(/memory/);
    expect(rate).toContain(`${env.rateLimitPerSecond} requests per second`);
    expect(rate).toContain(`at most ${env.rateLimitBurst} in one second`);
  });

  it("describes the per-address lockout after invalid credentials, valid keys included", () => {
    const rate = text("rate-limit");
    expect(rate).toMatch(/30 requests with credentials that do not authenticate .* within 60 s lock the address out/);
    expect(rate).toMatch(/valid keys too/);
    expect(rate).toMatch(/retire the old one from every worker/);
  });
});

describe("idempotency guide", () => {
  it("says what a concurrent second request with one key gets on each database (tests/integration/cash-in-idempotency.test.ts)", () => {
    const idem = text("idempotency");
    expect(idem).toMatch(/on PostgreSQL the other gets a 409 `idempotency_conflict` with `Retry-After: 1` at once while the first is still running/);
    // The two kinds of 409 are told apart by the header, not the message (tests/integration/idempotency-keys.test.ts).
    expect(idem).toMatch(/the header, never the message, tells them apart/);
    expect(idem).toMatch(/embedded database \(PGlite.*\) it waits for the first to commit and gets its replay/);
  });
});
