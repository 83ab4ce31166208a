// CARD_SETTLEMENT_DAYS=0: card money is settled at once. Set before the first getEnv() of this file's process.
process.env.CARD_SETTLEMENT_DAYS = "0";

import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { cardBody } from "../helpers/cash-in";
import { getDb } from "@/lib/db/client";
import { ledgerAccounts, transactions } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja D0");
});

const balance = async (kind: string) => {
  const [r] = await getDb().select().from(ledgerAccounts).where(and(eq(ledgerAccounts.companyId, a.companyId), eq(ledgerAccounts.kind, kind)));
  return Number(r.balance);
};

describe("card settlement with CARD_SETTLEMENT_DAYS=0", () => {
  it("an approved card is settled at creation and lands in available", async () => {
    expect(getEnv().cardSettlementDays).toBe(0);
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: await cardBody(a.publicKey) });
    expect(res.body.data.status).toBe("paid");
    const [row] = await getDb().select().from(transactions).where(eq(transactions.id, res.body.data.id));
    expect(row.settledAt?.toISOString()).toBe(res.body.data.createdAt);
    expect(row.settleAt).toBeNull();
    expect(await balance("available")).toBe(1500 - 99);
    expect(await balance("waiting_funds")).toBe(0);
  });
});
