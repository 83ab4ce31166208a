/**
 * The Node.js versions the project claims (package.json `engines`, the README's quick start) are ones
 * every installed package accepts, and the Node running the tests (CI's) is one of them. A dependency
 * whose `engines` excludes part of the claimed range is what makes `npm install` print EBADENGINE on
 * a machine the README says is fine; .ci/run also fails on that warning itself.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
const claimed: string = pkg.engines.node;

/** "^20.19.0 || ^22.13.0 || >=24" -> "20.19+, 22.13+ or 24+": how the README says it. */
function inWords(range: string): string {
  const parts = range.split("||").map((p) => {
    const m = /^\s*(?:\^|>=)(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(p);
    if (!m) throw new Error(`cannot put "${p}" in words`);
    return m[2] && m[2] !== "0" ? `${m[1]}.${m[2]}+` : `${m[1]}+`;
  });
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`;
}

describe("Node.js engines", () => {
  it("the claimed range is accepted by every package in the lockfile (no EBADENGINE on any claimed version)", () => {
    expect(semver.validRange(claimed)).not.toBeNull();
    expect(lock.packages[""].engines?.node).toBe(claimed); // lockfile regenerated after the change
    const narrower: string[] = [];
    for (const [where, info] of Object.entries<any>(lock.packages)) {
      const wanted = info.engines?.node;
      // npm checks engines of required packages only; an optional one (a platform binary) that
      // does not fit is skipped without a warning.
      if (!where || !wanted || info.optional) continue;
      if (!semver.subset(claimed, wanted, { includePrerelease: false })) {
        narrower.push(`${where.replace(/^node_modules\//, "")}@${info.version} wants node ${wanted}`);
      }
    }
    expect(narrower).toEqual([]);
  });

  it("the README names the same versions", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`Needs Node.js ${inWords(claimed)}`);
    expect(readme).not.toMatch(/Node(\.js)? 20\.9\b/);
  });

  it("the Node.js running the suite (CI's) is one of them", () => {
    expect(semver.satisfies(process.versions.node, claimed), `node ${process.versions.node} vs ${claimed}`).toBe(true);
  });
});
