import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and data files that must be loaded from node_modules, not bundled;
  // pino and pdfkit read files next to their modules at run time for the same reason.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "pdfkit", "bwip-js"],
  // Lets several builds (tests, benchmarks, a developer's dev server) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
