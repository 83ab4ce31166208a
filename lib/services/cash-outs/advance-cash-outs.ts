import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { cashOuts, pspPayouts } from "@/lib/db/schema";
import { executeCashOut, executeCashOutMoves, type CashOutStep } from "@/lib/executor/execute";
import { getLogger } from "@/lib/logger";
import { payoutProviderFor } from "@/lib/processors/payouts/registry";
import { PayoutUnavailableError, type PayoutSendResult, type PayoutStatus } from "@/lib/processors/payouts/types";
import type { Tx } from "@/lib/db/client";
import type { PixPayoutProvider } from "@/lib/processors/payouts/types";
import type { CashOutRow } from "./cash-out-view";
import { CONFIRMATION_PENDING, lastErrorCode, NOT_CONFIGURED, NOT_CONFIGURED_FAIL_MS, NOT_FOUND_MAX_POLL_MS, NOT_FOUND_VISIBLE_MS } from "./psp-waiting";

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
 *
 * A cash-out never waits forever without saying why (psp-waiting.ts): each failure to ask the PSP is
 * written on its `psp_payouts` row (`lastError`, since when), and whether an attempt may have reached
 * the PSP (`mayHaveReachedPsp`: set by an accepted send or a failure whose outcome is unknown, and by a
 * send left in flight, marked at the lease, by an instance that never recorded its answer). A `pending`
 * one whose attempts never left and whose PSP settings stay incomplete for NOT_CONFIGURED_FAIL_MS is
 * failed through the executor (`cash_out_failed`: amount and fee back to available, its webhook); one
 * that may be at the PSP never is. A `processing` one the PSP does not show (404) is asked about with
 * a growing delay and never failed.
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
 * The wait before the next read-back of a transfer the PSP accepted and has not finished (or does not
 * show), `waitedMs` into it: a tenth of that, at least the PSP's own pace, at most NOT_FOUND_MAX_POLL_MS.
 */
function readBackDelay(provider: PixPayoutProvider, waitedMs: number): number {
  return Math.min(NOT_FOUND_MAX_POLL_MS, Math.max(provider.pollDelayMs(), Math.round(waitedMs / 10)));
}

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
      // A send is about to be made: marked in flight, committed with the lease. A mark still set from an
      // earlier lease is a send whose answer was never recorded (the instance stopped, or lost its lease):
      // it may have reached the PSP.
      if (c.status === "pending") {
        await tx
          .update(pspPayouts)
          .set({ mayHaveReachedPsp: sql`${pspPayouts.mayHaveReachedPsp} or ${pspPayouts.sendInFlight}`, sendInFlight: true })
          .where(eq(pspPayouts.cashOutId, c.id));
      }
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
  // Nothing holds it any more: the reason it waited, cleared (written only when there is one to clear).
  const cleared = payout && (payout.lastError !== null || payout.notConfiguredSince !== null || payout.notFoundSince !== null);
  const clearWaiting = { lastError: null, lastErrorSince: null, notConfiguredSince: null, notFoundSince: null };
  if (answer.kind === "unavailable") {
    const { error } = answer;
    const attempts = (payout?.sendAttempts ?? 0) + 1;
    const lastError = `${error.code}: ${error.message}`.slice(0, 500);
    const lastErrorSince = payout?.lastErrorSince && lastErrorCode(payout.lastError) === error.code ? payout.lastErrorSince : now;
    const notConfiguredSince = error.code === NOT_CONFIGURED ? (payout?.notConfiguredSince ?? now) : null;
    const mayHaveReachedPsp = cur.status === "processing" || Boolean(payout?.mayHaveReachedPsp) || error.mayHaveReachedPsp;
    const values = { sendAttempts: attempts, lastError, lastErrorSince, notConfiguredSince, mayHaveReachedPsp, sendInFlight: false };
    // Settings incomplete for the whole bound, and no attempt ever left: Efí cannot hold this transfer.
    if (payout && cur.status === "pending" && !mayHaveReachedPsp && notConfiguredSince && now.getTime() - notConfiguredSince.getTime() >= NOT_CONFIGURED_FAIL_MS) {
      getLogger().warn({ job: "cash-outs", cashOutId: cur.id, processor: cur.processor, since: notConfiguredSince.toISOString() }, "PSP settings incomplete for too long, never sent: failing the cash-out");
      await setPayout(values);
      const failReason = `${error.message.replace(/\.?$/, ".")} O saque não foi enviado à Efí e foi cancelado depois de ${NOT_CONFIGURED_FAIL_MS / 60_000} minutos com a configuração incompleta; o valor e a tarifa voltaram ao saldo no seu PSP.`;
      await move({ cause: "cash_out_failed", cashOut: cur, facts: { failReason } });
      return;
    }
    getLogger().warn({ job: "cash-outs", cashOutId: cur.id, processor: cur.processor, code: error.code, mayHaveReachedPsp }, "payout provider unavailable: will retry");
    await setPayout(values);
    await tx.update(cashOuts).set({ nextStepAt: later(RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1]) }).where(eq(cashOuts.id, cur.id));
    return;
  }
  if (answer.kind === "send") {
    const r = answer.result;
    await setPayout({
      sendAttempts: (payout?.sendAttempts ?? 0) + 1,
      ...clearWaiting,
      sendInFlight: false,
      ...(r.status === "accepted" ? { pspStatus: "EM_PROCESSAMENTO", e2eId: r.reference, mayHaveReachedPsp: true } : {}),
    });
    if (r.status === "accepted") {
      await move({ cause: "cash_out_processing", cashOut: cur, facts: { nextStepAt: later(provider.pollDelayMs()) } });
    } else {
      await move({ cause: "cash_out_failed", cashOut: cur, facts: { failReason: r.reason } });
    }
    return;
  }
  const s = answer.result;
  if (s.status === "pending" && s.notFound) {
    // The PSP accepted this transfer but does not show it: never failed for that (it may still make
    // it); asked about less and less often, and shown as waiting once it lasts.
    const since = payout?.notFoundSince ?? now;
    const missing = now.getTime() - since.getTime();
    if (missing >= NOT_FOUND_VISIBLE_MS) {
      if (lastErrorCode(payout?.lastError ?? null) !== CONFIRMATION_PENDING) {
        const e2e = payout?.e2eId ? ` (end-to-end ${payout.e2eId})` : "";
        await setPayout({
          notFoundSince: since,
          lastError: `${CONFIRMATION_PENDING}: Aguardando confirmação da Efí: ela aceitou o Pix${e2e}, mas a consulta por idEnvio ainda não o encontra.`,
          lastErrorSince: since,
        });
      }
    } else if (!payout?.notFoundSince) {
      await setPayout({ notFoundSince: since, lastError: null, lastErrorSince: null });
    }
    await tx.update(cashOuts).set({ nextStepAt: later(readBackDelay(provider, missing)) }).where(eq(cashOuts.id, cur.id));
  } else if (s.status === "pending") {
    // Still EM_PROCESSAMENTO: most transfers end within seconds, a few take hours (the receiving bank,
    // a fraud check). Asked about at the PSP's pace at first, then less and less often, counted from
    // the move to processing (cur.updatedAt: only a status move writes it).
    if (cleared) await setPayout(clearWaiting);
    const processingFor = Math.max(0, now.getTime() - cur.updatedAt.getTime());
    await tx.update(cashOuts).set({ nextStepAt: later(readBackDelay(provider, processingFor)) }).where(eq(cashOuts.id, cur.id));
  } else if (s.status === "completed") {
    await setPayout({ pspStatus: "REALIZADO", e2eId: s.end2endId, ...clearWaiting });
    await move({ cause: "cash_out_completed", cashOut: cur, facts: { end2endId: s.end2endId, completedAt: now } });
  } else {
    await setPayout({ pspStatus: "NAO_REALIZADO", ...clearWaiting });
    await move({ cause: "cash_out_failed", cashOut: cur, facts: { failReason: s.reason } });
  }
}
