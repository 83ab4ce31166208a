import { and, asc, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { pspRefunds, transactionStatusChanges } from "@/lib/db/schema";
import { PSP_MOTIVO_MAX, untrustedLine } from "@/lib/core/untrusted-text";
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
  /**
   * A return the PSP made by itself (psp_med_return, psp_med_return_unbooked): its natureza
   * (MED_FRAUDE, ...) and the PSP's motivo (free text: one line, at most 140 characters), from its
   * psp_refunds row. Null on every other entry.
   */
  pspReturn: { natureza: string | null; motivo: string | null } | null;
};

/** The status history of a transaction of the account, oldest first (dashboard detail page). */
export async function getTransactionTimeline(
  ctx: Pick<ServiceContext, "account">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<TimelineEntry[]> {
  const t = await getTransaction(ctx, rawId, db);
  const rows = await db
    .select({ change: transactionStatusChanges, natureza: pspRefunds.natureza, motivo: pspRefunds.motivo, refundId: pspRefunds.id })
    .from(transactionStatusChanges)
    .leftJoin(pspRefunds, and(eq(pspRefunds.id, transactionStatusChanges.pspRefundId), eq(pspRefunds.transactionId, transactionStatusChanges.transactionId), eq(pspRefunds.initiatedBy, "psp")))
    .where(eq(transactionStatusChanges.transactionId, t.id))
    .orderBy(asc(transactionStatusChanges.id));
  return rows.map(({ change: r, natureza, motivo, refundId }) => ({
    id: r.id,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    cause: r.cause,
    amount: r.amount === null ? null : Number(r.amount),
    actor: r.actor,
    createdAt: r.createdAt,
    pspReturn: refundId === null ? null : { natureza, motivo: untrustedLine(motivo, PSP_MOTIVO_MAX) },
  }));
}
