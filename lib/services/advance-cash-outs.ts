import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts } from "@/lib/db/schema";
import { canMoveCashOut, type CashOutStatus } from "@/lib/domain/cash-out";
import { getEnv } from "@/lib/env";
import { cashOutCompletionJournal, cashOutReversalJournal } from "@/lib/ledger/cash-out-journals";
import { postJournal } from "@/lib/ledger/post";
import { payoutProviderFor } from "@/lib/processors/sandbox-psp-payouts";
import { enqueueCashOutEvent } from "@/lib/webhooks/outbox";
import type { Tx } from "@/lib/db/client";
import { cashOutResource, type CashOutRow } from "./cash-out-view";

async function move(tx: Tx, c: CashOutRow, to: CashOutStatus, patch: Partial<typeof cashOuts.$inferInsert>, now: Date) {
  if (!canMoveCashOut(c.status as CashOutStatus, to)) throw new Error(`Cash-out ${c.id} cannot move from ${c.status} to ${to}`);
  const [after] = await tx
    .update(cashOuts)
    .set({ ...patch, status: to, updatedAt: now })
    .where(and(eq(cashOuts.id, c.id), eq(cashOuts.status, c.status)))
    .returning();
  if (!after) throw new Error(`Cash-out ${c.id} changed under a row lock`);
  await enqueueCashOutEvent(tx, after, cashOutResource(after), now);
  return after;
}

/**
 * One step of each cash-out whose time has come (next_step_at <= now), one database transaction per
 * cash-out: claimed with FOR UPDATE SKIP LOCKED, so app instances and workers share the queue
 * without taking the same row twice. pending -> processing (the PSP accepted it; its answer is due
 * SANDBOX_PSP_DELAY_MS later) -> completed (end-to-end id; the reserved money goes to the PSP and
 * the fee to the platform) or failed (reason; amount and fee back to available). Every move writes
 * its `cash_out` webhook in the same commit. Returns how many steps were taken.
 */
export async function advanceDueCashOuts(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const limit = opts.limit ?? 100;
  const delayMs = getEnv().sandboxPspDelayMs;
  let steps = 0;
  while (steps < limit) {
    const took = await getDb().transaction(async (tx) => {
      const [c] = await tx
        .select()
        .from(cashOuts)
        .where(and(lte(cashOuts.nextStepAt, now), inArray(cashOuts.status, ["pending", "processing"])))
        .orderBy(asc(cashOuts.nextStepAt), asc(cashOuts.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!c) return false;
      if (c.status === "pending") {
        await move(tx, c, "processing", { nextStepAt: new Date(now.getTime() + delayMs) }, now);
        return true;
      }
      // A real PSP's answer would be fetched outside the row lock; the sandbox decides in memory.
      const outcome = await payoutProviderFor(c.processor).outcome({
        cashOutId: c.id,
        amount: c.amount,
        pixKey: c.pixKey,
        pixKeyType: c.pixKeyType,
        now,
      });
      if (outcome.status === "completed") {
        await postJournal(tx, cashOutCompletionJournal(c, now));
        await move(tx, c, "completed", { end2endId: outcome.end2endId, completedAt: now, nextStepAt: null }, now);
      } else {
        await postJournal(tx, cashOutReversalJournal(c, now));
        await move(tx, c, "failed", { failReason: outcome.reason, nextStepAt: null }, now);
      }
      return true;
    });
    if (!took) break;
    steps += 1;
  }
  return steps;
}
