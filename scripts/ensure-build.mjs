// Builds the app for the process and browser tests unless an up-to-date build is already there
// (CI builds once and runs the suite on two databases against the same build).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

const distDir = process.env.NEXT_DIST_DIR || ".next";
const buildId = path.join(distDir, "BUILD_ID");
const SOURCES = ["app", "components", "lib", "public", "instrumentation.ts", "proxy.ts", "next.config.mjs", "package.json", "drizzle"];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(p)) m = Math.max(m, newest(path.join(p, e)));
  return m;
}

const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const changed = Math.max(...SOURCES.map(newest));
if (built && changed <= built) {
  console.log(`ensure-build: ${distDir} is up to date`);
} else {
  console.log(`ensure-build: building into ${distDir}`);
  // next build adds a dist dir other than .next to tsconfig.json's include (and reformats the file):
  // put the file back, so a benchmark's or a test's own build leaves the tree as it was.
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: process.env });
  if (readFileSync("tsconfig.json", "utf8") !== tsconfig) writeFileSync("tsconfig.json", tsconfig);
  process.exit(r.status ?? 1);
}
