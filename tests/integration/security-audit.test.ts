/**
 * `npm audit --omit=dev --audit-level=high` exits 0: no known high or critical advisory in what
 * ships. Needs the registry's audit endpoint; where it cannot be reached (an offline machine, a
 * registry mirror without the endpoint) the test is skipped with the reason, not passed or failed.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

describe("dependency audit", () => {
  it("npm audit --omit=dev --audit-level=high exits 0", (ctx) => {
    const r = spawnSync("npm", ["audit", "--omit=dev", "--audit-level=high", "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, npm_config_fund: "false", npm_config_update_notifier: "false" },
    });
    let report: any = null;
    try {
      report = JSON.parse(r.stdout);
    } catch {
      /* not JSON: handled below */
    }
    const reached = report && typeof report === "object" && report.metadata?.vulnerabilities !== undefined;
    if (!reached) {
      const why =
        r.error?.message ??
        (report?.message ? `${report.message}` : (r.stderr || r.stdout).split("\n").find((l) => /error/i.test(l)) ?? `exit ${r.status}`);
      console.warn(`SKIPPED npm audit: the registry's audit endpoint could not be used here (${why.trim()}). Run \`npm audit --omit=dev --audit-level=high\` where it is reachable (CI).`);
      ctx.skip();
      return;
    }
    const v = report.metadata.vulnerabilities as Record<string, number>;
    const highs = Object.entries(report.vulnerabilities ?? {})
      .filter(([, x]: [string, any]) => x.severity === "high" || x.severity === "critical")
      .map(([name, x]: [string, any]) => `${name} (${x.severity})`);
    expect(highs, `high/critical advisories: ${JSON.stringify(v)}`).toEqual([]);
    expect(r.status).toBe(0);
  }, 120_000);
});
