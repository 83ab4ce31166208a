import { desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import type { ServiceContext } from "../context";

export type ApiKeySummary = { id: number; hint: string; createdAt: Date; revokedAt: Date | null };

/** The account's secret keys as the dashboard lists them: hints only (the keys are stored hashed). */
export async function listApiKeys(ctx: Pick<ServiceContext, "account">, limit = 10): Promise<ApiKeySummary[]> {
  return getDb()
    .select({ id: apiKeys.id, hint: apiKeys.hint, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.companyId, ctx.account.id))
    .orderBy(desc(apiKeys.id))
    .limit(limit);
}
