import { inArray } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { cashOuts, pspPayouts } from "@/lib/db/schema";
import { sandboxPixPayouts } from "@/lib/processors/payouts/sandbox";
import type { CashOutRow, CashOutWithPsp } from "./cash-out-view";
import type { ServiceContext } from "../context";
import { ownedRow } from "../owned-row";

/** A cash-out of the context's account, with its PSP row (why it waits); another account's id reads as missing. */
export async function getCashOut(ctx: Pick<ServiceContext, "account">, rawId: string | number, db: Queryable = getDb()): Promise<CashOutWithPsp> {
  const row = await ownedRow(db, cashOuts, "Cash-out", ctx.account.id, rawId);
  return (await withPspPayouts([row], db))[0];
}

/** The rows with their `psp_payouts` rows, read in one query, and only when one of them went through a PSP. */
export async function withPspPayouts(rows: CashOutRow[], db: Queryable = getDb()): Promise<CashOutWithPsp[]> {
  const ids = rows.filter((r) => r.processor !== sandboxPixPayouts.name).map((r) => r.id);
  if (!ids.length) return rows;
  const payouts = new Map((await db.select().from(pspPayouts).where(inArray(pspPayouts.cashOutId, ids))).map((p) => [p.cashOutId, p]));
  return rows.map((r) => ({ ...r, psp: payouts.get(r.id) ?? null }));
}
