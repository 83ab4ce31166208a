import { getDb, type Queryable } from "@/lib/db/client";
import { cashOuts } from "@/lib/db/schema";
import type { CashOutRow } from "./cash-out-view";
import type { ServiceContext } from "../context";
import { ownedRow } from "../owned-row";

/** A cash-out of the context's account; another account's id reads as missing. */
export async function getCashOut(ctx: Pick<ServiceContext, "account">, rawId: string | number, db: Queryable = getDb()): Promise<CashOutRow> {
  return ownedRow(db, cashOuts, "Cash-out", ctx.account.id, rawId);
}
