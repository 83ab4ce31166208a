import { asc, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { transactionStatusChanges } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { getTransaction } from "./get-transaction";

export type TimelineEntry = {
  id: number;
  fromStatus: string | null;
  toStatus: string;
  cause: string;
  /** Refunded amount for refunds; the charge's amount on creation. */
  amount: number | null;
  actor: string;
  createdAt: Date;
};

/** The status history of a transaction of the account, oldest first (dashboard detail page). */
export async function getTransactionTimeline(
  ctx: Pick<ServiceContext, "account">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<TimelineEntry[]> {
  const t = await getTransaction(ctx, rawId, db);
  const rows = await db
    .select()
    .from(transactionStatusChanges)
    .where(eq(transactionStatusChanges.transactionId, t.id))
    .orderBy(asc(transactionStatusChanges.id));
  return rows.map((r) => ({
    id: r.id,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    cause: r.cause,
    amount: r.amount === null ? null : Number(r.amount),
    actor: r.actor,
    createdAt: r.createdAt,
  }));
}
