import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts, pspPayouts } from "@/lib/db/schema";
import { executeCashOut, executeCashOutMoves, type CashOutStep } from "@/lib/executor/execute";
import { getLogger } from "@/lib/logger";
import { payoutProviderFor } from "@/lib/processors/payouts/registry";
import { PayoutUnavailableError, type PayoutSendResult, type PayoutStatus } from "@/lib/processors/payouts/types";
import type { Tx } from "@/lib/db/client";
import type { PixPayoutProvider } from "@/lib/processors/payouts/types";
import type { CashOutRow } from "./cash-out-view";

/** How long a claimed cash-out is left to the instance that took it before another may. */
const LEASE_MS = 60_000;
/** Waits after a PSP that could not be asked: 5 s, 15 s, 1 min, 5 min, then every 15 min. */
const RETRY_MS = [5_000, 15_000, 60_000, 300_000, 900_000];

type Answer = { kind: "send"; result: PayoutSendResult } | { kind: "status"; result: PayoutStatus } | { kind: "unavailable"; error: PayoutUnavailableError };

/** Due cash-outs locked by one claim: the sandbox steps them all in that one transaction. */
const CLAIM_BATCH = 20;

/**
 * One step of each cash-out whose time has come (next_step_at <= now). pending -> processing (the PSP
 * accepted the transfer) -> completed (end-to-end id; the reserved money goes to the PSP and the fee
 * to the platform) or failed (reason; amount and fee back to available). Every move writes its
 * `cash_out` webhook in the same commit (the executor, under the money table's cash-out rows).
 *
 * A PSP over the network is never asked while a row is locked: a step claims its cash-out (FOR UPDATE SKIP LOCKED,
 * next_step_at moved a lease ahead, committed), asks the PSP, then applies the answer in a second
 * transaction only if the row is still as claimed. An instance that dies in between leaves the lease
 * to run out, and the step is taken again with the same idEnvio (the PSP never sends twice). The
 * sandbox answers from memory: one transaction locks up to CLAIM_BATCH due cash-outs and steps the
 * sandbox's in it, all of their moves in one statement (lib/executor/execute.ts, executeCashOutMoves),
 * up to the first one of a PSP over the network, which it leases (the rows after it stay due for the
 * next claim). A step that fails rolls its whole claim back: the rows stay due.
 * Returns how many steps were taken.
 */
export async function advanceDueCashOuts(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const limit = opts.limit ?? 100;
  let done = 0;
  while (done < limit) {
    const claim = await claimDue(now, Math.min(CLAIM_BATCH, limit - done));
    if (claim.leased) await takeRemoteStep(claim.leased, now);
    done += claim.taken;
    if (!claim.more) break;
  }
  return done;
}

type PayoutRow = typeof pspPayouts.$inferSelect;

/**
 * Locks up to `max` due cash-outs, oldest due first: the sandbox's are stepped in this transaction,
 * the first of a PSP over the network is leased for a call outside the lock. `more`: due rows may be
 * left (the claim was full, or it stopped at a leased one).
 */
async function claimDue(now: Date, max: number): Promise<{ taken: number; leased: CashOutRow | null; more: boolean }> {
  return getDb().transaction(async (tx) => {
    const due = await tx
      .select()
      .from(cashOuts)
      .where(and(lte(cashOuts.nextStepAt, now), inArray(cashOuts.status, ["pending", "processing"])))
      .orderBy(asc(cashOuts.nextStepAt), asc(cashOuts.id))
      .limit(max)
      .for("update", { skipLocked: true });
    // The in-memory PSP's moves of this claim, written together in one statement at the end.
    const steps: CashOutStep[] = [];
    const move = async (step: CashOutStep) => void steps.push(step);
    let taken = 0;
    let leased: CashOutRow | null = null;
    for (const c of due) {
      const provider = payoutProviderFor(c.processor);
      taken += 1;
      if (provider.inMemory) {
        await applyAnswer(tx, c, await ask(provider, c, undefined, now), provider, undefined, now, move);
        continue;
      }
      [leased] = await tx
        .update(cashOuts)
        .set({ nextStepAt: new Date(now.getTime() + LEASE_MS) })
        .where(eq(cashOuts.id, c.id))
        .returning();
      break;
    }
    if (steps.length) await executeCashOutMoves(tx, { actor: "system", now }, steps);
    return { taken, leased, more: leased !== null || due.length === max };
  });
}

async function ask(provider: PixPayoutProvider, c: CashOutRow, payout: PayoutRow | undefined, now: Date): Promise<Answer> {
  const input = { companyId: c.companyId, cashOutId: c.id, idEnvio: payout?.idEnvio ?? `arara${c.id}`, amount: c.amount, pixKey: c.pixKey, pixKeyType: c.pixKeyType, now };
  try {
    return c.status === "pending"
      ? { kind: "send", result: await provider.send({ ...input, payerKey: payout?.payerKey ?? null }) }
      : { kind: "status", result: await provider.status(input) };
  } catch (e) {
    if (!(e instanceof PayoutUnavailableError)) throw e;
    return { kind: "unavailable", error: e };
  }
}

async function takeRemoteStep(c: CashOutRow, now: Date): Promise<void> {
  const provider = payoutProviderFor(c.processor);
  const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, c.id));
  const answer = await ask(provider, c, payout, now);
  await getDb().transaction(async (tx) => {
    const [cur] = await tx.select().from(cashOuts).where(eq(cashOuts.id, c.id)).for("update");
    // Another instance took it after our lease ran out: its answer wins.
    if (!cur || cur.status !== c.status || cur.nextStepAt?.getTime() !== c.nextStepAt?.getTime()) return;
    await applyAnswer(tx, cur, answer, provider, payout, now, (step) => executeCashOut(tx, { actor: "system", now }, step));
  });
}

/**
 * Writes a PSP's answer about a cash-out: its PSP row, its next step, and the move the answer makes,
 * handed to `move` (executed at once, or gathered for the claim's one statement).
 */
async function applyAnswer(
  tx: Tx,
  cur: CashOutRow,
  answer: Answer,
  provider: PixPayoutProvider,
  payout: PayoutRow | undefined,
  now: Date,
  move: (step: CashOutStep) => Promise<unknown>,
): Promise<void> {
  const later = (ms: number) => new Date(now.getTime() + ms);
  const setPayout = async (values: Partial<typeof pspPayouts.$inferInsert>) => {
    if (payout) await tx.update(pspPayouts).set({ ...values, updatedAt: now }).where(eq(pspPayouts.cashOutId, cur.id));
  };
  if (answer.kind === "unavailable") {
    const attempts = (payout?.sendAttempts ?? 0) + 1;
    getLogger().warn({ job: "cash-outs", cashOutId: cur.id, processor: cur.processor, code: answer.error.code }, "payout provider unavailable: will retry");
    await setPayout({ sendAttempts: attempts, lastError: `${answer.error.code}: ${answer.error.message}`.slice(0, 500) });
    await tx.update(cashOuts).set({ nextStepAt: later(RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]) }).where(eq(cashOuts.id, cur.id));
    return;
  }
  if (answer.kind === "send") {
    const r = answer.result;
    await setPayout({ sendAttempts: (payout?.sendAttempts ?? 0) + 1, lastError: null, ...(r.status === "accepted" ? { pspStatus: "EM_PROCESSAMENTO", e2eId: r.reference } : {}) });
    if (r.status === "accepted") {
      await move({ cause: "cash_out_processing", cashOut: cur, facts: { nextStepAt: later(provider.pollDelayMs()) } });
    } else {
      await move({ cause: "cash_out_failed", cashOut: cur, facts: { failReason: r.reason } });
    }
    return;
  }
  const s = answer.result;
  if (s.status === "pending") {
    await tx.update(cashOuts).set({ nextStepAt: later(provider.pollDelayMs()) }).where(eq(cashOuts.id, cur.id));
  } else if (s.status === "completed") {
    await setPayout({ pspStatus: "REALIZADO", e2eId: s.end2endId });
    await move({ cause: "cash_out_completed", cashOut: cur, facts: { end2endId: s.end2endId, completedAt: now } });
  } else {
    await setPayout({ pspStatus: "NAO_REALIZADO" });
    await move({ cause: "cash_out_failed", cashOut: cur, facts: { failReason: s.reason } });
  }
}
