import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and data files that must be loaded from node_modules, not bundled;
  // pino and pdfkit read files next to their modules at run time for the same reason; fontkit is
  // pdfkit's font engine, used directly by the boleto PDF (one copy, loaded by Node).
  serverExternalPackages: ["@electric-sql/pglite", "pino", "pdfkit", "fontkit", "bwip-js"],
  // Lets several builds (tests, benchmarks, a developer's dev server) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
