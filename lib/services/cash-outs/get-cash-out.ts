import { and, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { cashOuts } from "@/lib/db/schema";
import type { CashOutRow } from "./cash-out-view";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { idOrNotFound } from "@/lib/core/ids";

/** A cash-out of the context's account; another account's id reads as missing. */
export async function getCashOut(ctx: Pick<ServiceContext, "account">, rawId: string | number, db: Queryable = getDb()): Promise<CashOutRow> {
  const id = idOrNotFound(rawId, "Cash-out");
  const rows = await db
    .select()
    .from(cashOuts)
    .where(and(eq(cashOuts.id, id), eq(cashOuts.companyId, ctx.account.id)))
    .limit(1);
  if (!rows[0]) throw notFound("Cash-out");
  return rows[0];
}
