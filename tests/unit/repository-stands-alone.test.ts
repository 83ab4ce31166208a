/**
 * A clone of the repository is all a reader or a contributor has. No file may send them to documents
 * outside it (a sibling `../shared` folder, the planning notes the code was first written from), and
 * every relative link in the Markdown documents must reach a file of the repository, and a heading of it
 * when the link names one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const SELF = path.relative(ROOT, __filename);
/** Build output, dependencies, local data: never part of a clone. */
const SKIP_DIRS = new Set(["node_modules", ".git", ".data", "out", "coverage", "test-results", "playwright-report", ".tmp-proof"]);

function files(dir = ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || entry.name === ".next" || entry.name.startsWith(".next-")) continue;
      if (path.relative(ROOT, path.join(dir, entry.name)) === path.join("tests", "bench", "results")) continue;
      out.push(...files(path.join(dir, entry.name)));
    } else if (entry.isFile()) {
      out.push(path.relative(ROOT, path.join(dir, entry.name)));
    }
  }
  return out;
}

function text(rel: string): string | null {
  const full = path.join(ROOT, rel);
  if (statSync(full).size > 2_000_000) return null;
  const buf = readFileSync(full);
  if (buf.subarray(0, 8000).includes(0)) return null; // binary (fonts, images)
  return buf.toString("utf8");
}

const ALL = files().filter((f) => f !== SELF && f !== ".env" && f !== ".env.local");

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    anchors.add(
      m[1]
        .toLowerCase()
        .replace(/[`*_[\]()]/g, "")
        .replace(/[^\p{L}\p{N}\s-]/gu, "")
        .trim()
        .replace(/\s/g, "-"),
    );
  }
  return anchors;
}

describe("the repository stands alone", () => {
  it("finds the files it checks", () => {
    expect(ALL).toContain("README.md");
    expect(ALL).toContain("CONTRIBUTING.md");
    expect(ALL).toContain(path.join("docs", "api.md"));
    expect(ALL).toContain(path.join("lib", "domain", "status.ts"));
  });

  it("no file points outside it: ../shared, shared/spec, or the planning notes by name", () => {
    const outside = /\.\.\/shared\b|\bshared\/(spec|design)\b|\b(decisions|payments-api|vectors|architecture)\.md\b|TEAM-NOTES/;
    const offenders: string[] = [];
    for (const f of ALL) {
      const t = text(f);
      if (t === null) continue;
      t.split("\n").forEach((line, i) => {
        // docs/ARCHITECTURE.md is the repository's own (upper case, in docs/); the check is case-sensitive.
        if (outside.test(line)) offenders.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("every relative link in the Markdown documents reaches a file of the repository (and its heading)", () => {
    const broken: string[] = [];
    for (const f of ALL.filter((x) => x.endsWith(".md"))) {
      const t = text(f) ?? "";
      // [text](target) outside code spans; external links and mail are not checked here.
      for (const m of t.replace(/```[\s\S]*?```/g, "").matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [file, anchor] = target.split("#");
        const resolved = file ? path.resolve(path.dirname(path.join(ROOT, f)), file) : path.join(ROOT, f);
        if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) {
          broken.push(`${f}: ${target} leaves the repository`);
          continue;
        }
        if (!existsSync(resolved)) {
          broken.push(`${f}: ${target} does not exist`);
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) {
          broken.push(`${f}: ${target} names no heading of ${path.relative(ROOT, resolved)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
