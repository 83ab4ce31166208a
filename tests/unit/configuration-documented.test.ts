/**
 * Every variable the configuration reads (lib/env.ts) is documented twice: in `.env.example` with its
 * default, and in the README's configuration table. The variables are found by watching which keys
 * parseEnv() reads from the environment, so a new one is caught without anyone listing it here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const ROOT = path.resolve(__dirname, "../..");

/** The names parseEnv() reads from its source. */
function variablesRead(): string[] {
  const read = new Set<string>();
  const source = new Proxy({} as Record<string, string | undefined>, {
    get(target, key) {
      if (typeof key === "string" && /^[A-Z][A-Z0-9_]*$/.test(key)) read.add(key);
      return Reflect.get(target, key);
    },
  });
  parseEnv(source);
  return [...read].sort();
}

/** `# NAME=value` or `NAME=value` lines of .env.example. */
function envExample(): Map<string, string> {
  const text = readFileSync(path.join(ROOT, ".env.example"), "utf8");
  const vars = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^#?\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) vars.set(m[1], m[2]);
  }
  return vars;
}

/** Variable names in the first column of the README's "## Configuration" table. */
function readmeTable(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Configuration"));
  expect(section, "README has a ## Configuration section").toBeDefined();
  return [...section!.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]);
}

describe("configuration documented", () => {
  const read = variablesRead();

  it("finds the variables lib/env.ts reads", () => {
    // A sanity floor: if the Proxy stopped seeing reads, every check below would pass vacuously.
    expect(read).toEqual(expect.arrayContaining(["DATABASE_URL", "PGLITE_DIR", "KEY_ENCRYPTION_SECRET", "WEBHOOK_RETRY_SCHEDULE"]));
    expect(read.length).toBeGreaterThanOrEqual(20);
  });

  it("lists every variable in .env.example, each with a one-line comment above it", () => {
    const example = envExample();
    expect(read.filter((v) => !example.has(v))).toEqual([]);
    const lines = readFileSync(path.join(ROOT, ".env.example"), "utf8").split("\n");
    for (const v of example.keys()) {
      const at = lines.findIndex((l) => new RegExp(`^#?\\s?${v}=`).test(l));
      expect(lines[at - 1], `comment above ${v}`).toMatch(/^# \S/);
      expect(lines[at - 1]).not.toMatch(/^#\s?[A-Z][A-Z0-9_]*=/);
    }
  });

  it("gives each variable its real default in .env.example", () => {
    const defaults = parseEnv({});
    for (const [name, value] of envExample()) {
      if (!read.includes(name)) continue; // read elsewhere (NEXT_DIST_DIR: next.config.mjs)
      expect(parseEnv({ [name]: value }), `${name}=${value}`).toEqual(defaults);
    }
  });

  it("documents every variable in the README's configuration table, and nothing unknown in either", () => {
    const table = readmeTable();
    expect(read.filter((v) => !table.includes(v))).toEqual([]);
    // Both lists name the same variables (NEXT_DIST_DIR, read by next.config.mjs, is in both).
    expect([...envExample().keys()].sort()).toEqual([...table].sort());
  });
});
