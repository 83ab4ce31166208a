/**
 * The scripts and the worker read `.env` as the app does (scripts/env-file.ts): DATABASE_URL and
 * KEY_ENCRYPTION_SECRET kept there reach `npm run account:create` and the worker too, instead of the
 * embedded default; a variable set in the environment still wins.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

it("loads .env from the working directory, the environment winning over the file", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arara-env-"));
  try {
    writeFileSync(path.join(dir, ".env"), "DATABASE_URL=postgres://u@db.example:5432/loja\nLOG_LEVEL=debug\n");
    const script = `import ${JSON.stringify(path.join(ROOT, "scripts/env-file.ts"))}; console.log(JSON.stringify({ db: process.env.DATABASE_URL, level: process.env.LOG_LEVEL }));`;
    const env = { ...process.env, LOG_LEVEL: "warn" } as NodeJS.ProcessEnv;
    delete env.DATABASE_URL;
    const run = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["-e", script], { cwd: dir, env, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ db: "postgres://u@db.example:5432/loja", level: "warn" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
