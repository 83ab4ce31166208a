// @ts-check
// Plain JavaScript on purpose: Next compiles a next.config.ts with its native SWC module at every
// start, so `next start` would load that module (about 25 MB resident, plus its heap) into the
// production server only to read this file. tests/integration/start-command-process.test.ts checks that
// the production server (started by `npm start`) does not load it.

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build and data files that must be loaded from node_modules, not bundled;
  // pino and pdfkit read files next to their modules at run time for the same reason; fontkit is
  // pdfkit's font engine, used directly by the boleto PDF (one copy, loaded by Node).
  serverExternalPackages: ["@electric-sql/pglite", "pino", "pdfkit", "fontkit", "bwip-js"],
  // Lets several builds (tests, benchmarks, a developer's dev server) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Files named *.bench.ts (the benchmark's bare route, app/api/bench-baseline/route.bench.ts) are
  // routes only in a benchmark build (BENCH_BUILD=1, set by `npm run bench`): production has no such route.
  pageExtensions: process.env.BENCH_BUILD === "1" ? ["bench.ts", "tsx", "ts", "jsx", "js"] : ["tsx", "ts", "jsx", "js"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
