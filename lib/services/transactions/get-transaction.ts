import { and, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import type { TransactionRow } from "./transaction-view";
import { idOrNotFound } from "@/lib/core/ids";

/** A transaction of the context's account; another account's id is indistinguishable from a missing one. */
export async function getTransaction(ctx: Pick<ServiceContext, "account">, rawId: string | number, db: Queryable = getDb()): Promise<TransactionRow> {
  const id = idOrNotFound(rawId, "Transaction");
  const rows = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.companyId, ctx.account.id)))
    .limit(1);
  if (!rows[0]) throw notFound("Transaction");
  return rows[0];
}
