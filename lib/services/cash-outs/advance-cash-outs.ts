import { and, asc, inArray, lte } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import { executeCashOut } from "@/lib/executor/execute";
import { payoutProviderFor } from "@/lib/processors/sandbox-psp-payouts";

/**
 * One step of each cash-out whose time has come (next_step_at <= now), one database transaction per
 * cash-out: claimed with FOR UPDATE SKIP LOCKED, so app instances and workers share the queue
 * without taking the same row twice. pending -> processing (the PSP accepted it; its answer is due
 * SANDBOX_PSP_DELAY_MS later) -> completed (end-to-end id; the reserved money goes to the PSP and
 * the fee to the platform) or failed (reason; amount and fee back to available). Every move writes
 * its `cash_out` webhook in the same commit (the executor, under the money table's cash-out rows).
 * Returns how many steps were taken.
 */
export async function advanceDueCashOuts(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const limit = opts.limit ?? 100;
  const delayMs = getEnv().sandboxPspDelayMs;
  const ctx = { actor: "system", now };
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
        await executeCashOut(tx, ctx, { cause: "cash_out_processing", cashOut: c, facts: { nextStepAt: new Date(now.getTime() + delayMs) } });
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
        await executeCashOut(tx, ctx, { cause: "cash_out_completed", cashOut: c, facts: { end2endId: outcome.end2endId, completedAt: now } });
      } else {
        await executeCashOut(tx, ctx, { cause: "cash_out_failed", cashOut: c, facts: { failReason: outcome.reason } });
      }
      return true;
    });
    if (!took) break;
    steps += 1;
  }
  return steps;
}
