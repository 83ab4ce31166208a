import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The layers of docs/ARCHITECTURE.md, one direction only:
 *   app, components -> lib/http, lib/auth, lib/openapi -> lib/services -> lib/executor
 *   -> lib/ledger, lib/webhooks, lib/processors -> lib/db, lib/schemas -> lib/domain, lib/core
 * An import that climbs (a layer importing one above it) fails `npm run lint`;
 * tests/unit/layers.test.ts proves the rule bites.
 */
const above = {
  pages: ["@/app", "@/app/**", "@/components", "@/components/**"],
  http: ["@/lib/http", "@/lib/http/**", "@/lib/auth", "@/lib/auth/**", "@/lib/openapi", "@/lib/openapi/**"],
  services: ["@/lib/services", "@/lib/services/**"],
  executor: ["@/lib/executor", "@/lib/executor/**"],
  money: ["@/lib/ledger", "@/lib/ledger/**", "@/lib/webhooks", "@/lib/webhooks/**", "@/lib/processors", "@/lib/processors/**"],
  data: ["@/lib/db", "@/lib/db/**", "@/lib/schemas", "@/lib/schemas/**"],
  roots: ["@/lib/jobs", "@/lib/money-jobs", "@/lib/server-start", "@/lib/shutdown"],
};

/** The same targets reached by a relative path from a sibling folder of lib/ (or one below it). */
function withRelative(group) {
  const relative = group.filter((g) => g.startsWith("@/lib/")).flatMap((g) => [g.replace("@/lib/", "../"), g.replace("@/lib/", "../../")]);
  return [...group, ...relative];
}

function layer(files, name, groups) {
  return {
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: withRelative(groups.flat()),
              message: `${name} may not import a layer above it (see docs/ARCHITECTURE.md: app -> http -> services -> executor -> ledger/webhooks/processors -> db -> domain/core).`,
            },
          ],
        },
      ],
    },
  };
}

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ["node_modules/**", ".next/**", ".next-*/**", ".data/**", "drizzle/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "public/**"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  layer(["lib/http/**", "lib/auth/**", "lib/openapi/**"], "The http kit", [above.pages]),
  layer(["lib/services/**"], "A service", [above.pages, above.http, above.roots]),
  layer(["lib/executor/**"], "The executor", [above.pages, above.http, above.roots, above.services]),
  layer(["lib/ledger/**", "lib/webhooks/**", "lib/processors/**"], "The ledger, webhooks and processors", [
    above.pages,
    above.http,
    above.roots,
    above.services,
    above.executor,
  ]),
  layer(["lib/db/**", "lib/schemas/**"], "The database and schema layer", [above.pages, above.http, above.roots, above.services, above.executor, above.money]),
  layer(["lib/core/**"], "The kernel", [above.pages, above.http, above.roots, above.services, above.executor, above.money, ["@/lib/schemas", "@/lib/schemas/**"], ["@/lib/domain", "@/lib/domain/**"]]),
  // The domain is pure: no database, no configuration, no framework, nothing of the layers above.
  layer(["lib/domain/**"], "The domain", [
    above.pages,
    above.http,
    above.roots,
    above.services,
    above.executor,
    above.money,
    above.data,
    ["@/lib/core", "@/lib/core/**", "@/lib/env", "@/lib/logger", "next", "next/**", "drizzle-orm", "drizzle-orm/**"],
  ]),
];

export default config;
