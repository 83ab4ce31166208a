import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer rule of eslint.config.mjs, run through ESLint's API on fixture sources placed (by
// name only) in each layer: an import that climbs a layer is an error, one that goes down is not.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("npm run lint refuses an import that climbs a layer", () => {
  it.each([
    ["lib/ledger/fixture.ts", `import { refundTransaction } from "@/lib/services/transactions/refund-transaction";\nvoid refundTransaction;\n`],
    ["lib/ledger/fixture.ts", `import { refundTransaction } from "../services/refund-transaction";\nvoid refundTransaction;\n`],
    ["lib/webhooks/fixture.ts", `import { executeTransaction } from "@/lib/executor/execute";\nvoid executeTransaction;\n`],
    ["lib/services/fixture.ts", `import { withApiKey } from "@/lib/http/handler";\nvoid withApiKey;\n`],
    ["lib/services/transactions/fixture.ts", `import { ok } from "@/lib/http/envelope";\nvoid ok;\n`],
    ["lib/executor/fixture.ts", `import { getTransaction } from "@/lib/services/transactions/get-transaction";\nvoid getTransaction;\n`],
    ["lib/db/fixture.ts", `import { ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";\nvoid ensureDemoMerchant;\n`],
    ["lib/core/fixture.ts", `import { postJournal } from "@/lib/ledger/post";\nvoid postJournal;\n`],
    ["lib/domain/fixture.ts", `import { getDb } from "@/lib/db/client";\nvoid getDb;\n`],
    ["lib/domain/fixture.ts", `import { getEnv } from "@/lib/env";\nvoid getEnv;\n`],
    ["lib/domain/fixture.ts", `import { eq } from "drizzle-orm";\nvoid eq;\n`],
    ["lib/http/fixture.ts", `import Page from "@/app/page";\nvoid Page;\n`],
  ])("%s: %s", async (filePath, source) => {
    const errors = await layerErrors(filePath, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/may not import a layer above it/);
  }, 60_000);

  it.each([
    ["lib/services/fixture.ts", `import { executeTransaction } from "@/lib/executor/execute";\nimport { ServiceError } from "@/lib/core/errors";\nvoid executeTransaction; void ServiceError;\n`],
    ["lib/executor/fixture.ts", `import { postJournal } from "@/lib/ledger/post";\nimport { MONEY_TABLE } from "@/lib/domain/transitions";\nvoid postJournal; void MONEY_TABLE;\n`],
    ["lib/ledger/fixture.ts", `import { getDb } from "@/lib/db/client";\nimport type { TransactionRow } from "@/lib/core/rows";\nvoid getDb; export type T = TransactionRow;\n`],
    ["lib/http/fixture.ts", `import { refundTransaction } from "@/lib/services/transactions/refund-transaction";\nvoid refundTransaction;\n`],
    ["lib/domain/fixture.ts", `import { formatBRL } from "./money";\nvoid formatBRL;\n`],
  ])("allows %s to import downwards", async (filePath, source) => {
    expect(await layerErrors(filePath, source)).toEqual([]);
  }, 60_000);
});
