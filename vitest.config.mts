import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// An ES module (.mts): package.json has no "type": "module", and Vite warns about ESM syntax in a
// .ts config it would load as CommonJS.
const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root.replace(/\/$/, "") } },
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Pure domain tests: no database.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      // Everything else runs against a real database of its own per file (tests/setup/database.ts).
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/unit/**", "tests/e2e/**", "node_modules/**"],
          setupFiles: ["tests/setup/database.ts"],
        },
      },
    ],
  },
});
