/**
 * The test runner's own configuration loads without warnings: Vite warned on every run that
 * vitest.config.ts used ESM syntax in a file it would load as CommonJS (the config is an .mts now).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

it("vitest loads its configuration without a config-loader warning", () => {
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/vitest"), ["list", "--project", "unit", "tests/unit/money.test.ts"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "" },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain("money.test.ts"); // the configuration was loaded and the file listed
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/configLoader|Your Vite config uses features/);
});
