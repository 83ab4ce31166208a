import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
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
