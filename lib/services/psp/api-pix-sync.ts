/**
 * Payment confirmation through an API Pix PSP, trusting nothing a notification says: a webhook or
 * the reconciliation only names a charge to look at; what is decided comes from the PSP's own
 * answers to `GET /cob/{txid}` (and `GET /pix/{e2eid}`), over mutual TLS with our credentials.
 *
 * Each Pix the PSP reports for one of our charges is decided once (psp_pix_received, keyed by its
 * end-to-end id), in the database transaction that acts on it:
 *
 * - `paid`: the charge is CONCLUIDA at the PSP, the Pix carries the charge's full amount and the
 *   charge is still unpaid: it is confirmed through recordRailPayment (the one entry point of a
 *   rail's payment: timeline, ledger, `paid` webhook, payment-link duplicates), with the PSP's
 *   endToEndId and time.
 * - `paid_after_expiry`: the same, for a Pix the PSP settled after the charge's expiry. The money is
 *   in the merchant's account and a PIX cannot be refused, so the charge is paid; the timeline says
 *   it came late (`psp_paid_after_expiry`), for the merchant to decide on the order.
 * - `amount_mismatch`: a Pix of another amount. The charge is not paid; the timeline records the
 *   amount received (`psp_amount_mismatch`) and the charge stops being polled. The money is at the
 *   merchant's PSP; returning it is the merchant's decision (a devolução at the PSP).
 * - `duplicate`: another Pix for a charge already paid: recorded on the timeline
 *   (`psp_duplicate_payment`) with its amount, never a second payment of the charge.
 *
 * A charge of a payment link that another charge already paid (the payer paid two of the link's
 * PIX charges) is paid all the same, flagged as the duplicate (`duplicateOfId`, fee waived), and in
 * the same transaction a devolução of it is opened and its amount held (openDuplicateReturn); the
 * PSP is asked once that transaction has committed, and it becomes `refunded` only when the PSP
 * says DEVOLVIDO. If the PSP does not make it, it stays paid, flagged, for the merchant to refund.
 */
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies, pspCharges, pspPixReceived, transactions, transactionStatusChanges } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { recordRailPayment } from "@/lib/services/transactions/record-rail-payment";
import { applyMedReturns, openDuplicateReturn, syncRefund, type PspRefundRow } from "./api-pix-refunds";
import type { Account } from "@/lib/services/context";
import type { ApiPixClient } from "@/lib/processors/api-pix/client";
import { valorToCents } from "@/lib/processors/api-pix/helpers";
import { COB_STATUSES, type CobCompleta, type Pix } from "@/lib/processors/api-pix/schemas";

export type PspChargeRow = typeof pspCharges.$inferSelect;
export type PixDecision = "paid" | "paid_after_expiry" | "amount_mismatch" | "duplicate";

/** The actor on the timeline of what the PSP confirmed. */
export const PSP_ACTOR = "psp:api-pix";
/** After its expiry, a charge is still polled this long (a late settlement), then only the `GET /pix` scan sees it. */
export const LATE_PAYMENT_WINDOW_MS = 24 * 3_600_000;

const pspCtx = (account: Account, now: Date) => ({ account, actor: PSP_ACTOR, requestId: "psp:api-pix", now });

async function accountOf(companyId: number): Promise<Account> {
  const [a] = await getDb().select().from(companies).where(eq(companies.id, companyId));
  if (!a) throw new Error(`Account ${companyId} not found`);
  return a;
}

/** When to look at a pending charge next: soon while it is young, less often as it ages. */
export function nextCheckDelayMs(charge: Pick<PspChargeRow, "createdAt" | "expiresAt">, now: Date): number {
  const age = now.getTime() - charge.createdAt.getTime();
  return Math.min(15 * 60_000, Math.max(60_000, Math.floor(age / 10)));
}

export type SyncResult = { status: PspChargeRow["status"]; decisions: { e2eid: string; decision: PixDecision }[] };

/** Cob statuses outside the spec's enumeration met so far (each logged once per process). */
const unknownCobStatuses = new Set<string>();

/** Re-reads one charge at the PSP and acts on what the PSP says. */
export async function syncCharge(client: ApiPixClient, charge: PspChargeRow, now: Date = new Date()): Promise<SyncResult> {
  const cob: CobCompleta = await client.getCob(charge.txid);
  if (!(COB_STATUSES as readonly string[]).includes(cob.status) && !unknownCobStatuses.has(cob.status)) {
    // Not paid, not final: the charge is polled as an ATIVA one (a Pix is decided only on CONCLUIDA).
    // A log's de-duplication only (nothing is decided by it), bounded: a PSP inventing statuses cannot grow it.
    if (unknownCobStatuses.size < 100) unknownCobStatuses.add(cob.status);
    getLogger().warn({ component: "api-pix", account: charge.companyId, transaction: charge.transactionId, cobStatus: cob.status.slice(0, 40) }, "api-pix: a cob status outside the spec: read as not paid, not final (checked again)");
  }
  const received = [...(cob.pix ?? [])].sort((a, b) => Date.parse(a.horario) - Date.parse(b.horario) || a.endToEndId.localeCompare(b.endToEndId));
  const decisions: SyncResult["decisions"] = [];
  const returns: PspRefundRow[] = [];
  let account: Account | undefined;
  for (const pix of received) {
    if (pix.txid !== undefined && pix.txid !== charge.txid) continue;
    account ??= await accountOf(charge.companyId);
    const decided = await decidePix(account, charge, cob, pix, now);
    if (decided) decisions.push({ e2eid: pix.endToEndId, decision: decided.decision });
    if (decided?.duplicateReturn) returns.push(decided.duplicateReturn);
  }
  // The devolução of a link's duplicate payment, asked now that its row and hold are committed (never
  // inside the transaction). A PSP that does not answer leaves it requested: the reconciliation asks again.
  for (const refund of returns) {
    await syncRefund(client, refund, now).catch((e: unknown) => {
      getLogger().warn({ component: "api-pix", account: refund.companyId, refund: refund.id, err: e instanceof Error ? e.name : "error" }, "api-pix: devolução of a duplicate not asked yet: the reconciliation will ask again");
    });
  }

  // Returns made at the PSP without Arara (MED, or in the PSP's app) listed on the charge's Pix: booked once each, as refunds.
  for (const pix of received) {
    if (pix.txid !== undefined && pix.txid !== charge.txid) continue;
    await applyMedReturns(charge.companyId, pix, now);
  }

  // What is left to follow.
  const [after] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, charge.transactionId));
  let status = after.status;
  const patch: Partial<PspChargeRow> = { checkedAt: now, leaseUntil: null, updatedAt: now };
  if (status === "pending") {
    const removed = cob.status === "REMOVIDA_PELO_PSP" || cob.status === "REMOVIDA_PELO_USUARIO_RECEBEDOR";
    if (removed || now.getTime() > charge.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS) {
      patch.status = "expired";
    } else {
      patch.nextCheckAt = new Date(now.getTime() + nextCheckDelayMs(charge, now));
    }
    // Removed by the receiver (Arara, for a link paid by another charge: api-pix-abandon.ts; or the merchant at the PSP).
    const cause = patch.status !== "expired" ? null : cob.status === "REMOVIDA_PELO_USUARIO_RECEBEDOR" ? "psp_charge_removed" : "psp_charge_expired";
    const moved = await moveIfPending(charge.transactionId, patch, cause, now);
    if (moved) return { status: moved as PspChargeRow["status"], decisions };
    const [current] = await getDb().select({ status: pspCharges.status }).from(pspCharges).where(eq(pspCharges.transactionId, charge.transactionId));
    status = current.status as PspChargeRow["status"];
  }
  await getDb().update(pspCharges).set({ checkedAt: now, leaseUntil: null, updatedAt: now }).where(eq(pspCharges.transactionId, charge.transactionId));
  return { status, decisions };
}

/**
 * Moves a charge still pending (another instance may have recorded its payment since it was read,
 * and that must not be overwritten), with its timeline note (`cause`) in the same database
 * transaction. The PSP charge's status is Arara's follow-up only: the transaction's own status
 * (and its ledger, outbox and timeline) moves with the transaction's expiry, not here. Returns the
 * new status, or null when the charge was no longer pending.
 */
export async function moveIfPending(transactionId: number, patch: Partial<PspChargeRow>, cause: string | null, now: Date): Promise<string | null> {
  return getDb().transaction(async (tx) => {
    const [moved] = await tx
      .update(pspCharges)
      .set(patch)
      .where(and(eq(pspCharges.transactionId, transactionId), eq(pspCharges.status, "pending")))
      .returning({ status: pspCharges.status });
    if (!moved) return null;
    if (cause) await noteOnTimeline(transactionId, cause, null, now, tx);
    return moved.status;
  });
}

/** A timeline entry that is not a move: the status stays what it is. */
async function noteOnTimeline(transactionId: number, cause: string, amount: number | null, now: Date, q: Pick<ReturnType<typeof getDb>, "select" | "insert"> = getDb()) {
  const [t] = await q.select({ status: transactions.status }).from(transactions).where(eq(transactions.id, transactionId));
  await q.insert(transactionStatusChanges).values({
    transactionId,
    fromStatus: t.status,
    toStatus: t.status,
    cause,
    amount,
    actor: PSP_ACTOR,
    createdAt: now,
  });
}

async function decidePix(
  account: Account,
  charge: PspChargeRow,
  cob: CobCompleta,
  pix: Pix,
  now: Date,
): Promise<{ decision: PixDecision; duplicateReturn?: PspRefundRow } | null> {
  const amount = valorToCents(pix.valor);
  const paidAt = new Date(pix.horario);
  const log = getLogger().child({ component: "api-pix", account: account.id, transaction: charge.transactionId });
  return getDb().transaction(async (tx) => {
    const [t] = await tx.select().from(transactions).where(eq(transactions.id, charge.transactionId)).for("update");
    const [seen] = await tx.select({ decision: pspPixReceived.decision }).from(pspPixReceived).where(eq(pspPixReceived.e2eid, pix.endToEndId));
    if (seen) return null;

    let decision: PixDecision;
    if (t.paidAt !== null) decision = "duplicate";
    else if (amount !== t.amount) decision = "amount_mismatch";
    else if (cob.status !== "CONCLUIDA") return null; // a Pix listed on a charge not yet CONCLUIDA: look again later
    else decision = paidAt.getTime() > charge.expiresAt.getTime() ? "paid_after_expiry" : "paid";

    await tx.insert(pspPixReceived).values({
      e2eid: pix.endToEndId,
      companyId: account.id,
      transactionId: t.id,
      amount,
      paidAt,
      decision,
      createdAt: now,
    });
    const note = (cause: string) =>
      tx.insert(transactionStatusChanges).values({ transactionId: t.id, fromStatus: t.status, toStatus: t.status, cause, amount, actor: PSP_ACTOR, createdAt: now });

    if (decision === "duplicate") {
      await note("psp_duplicate_payment");
      log.warn({ decision }, "api-pix: another Pix for a charge already paid (recorded, not applied)");
    } else if (decision === "amount_mismatch") {
      await note("psp_amount_mismatch");
      await tx.update(pspCharges).set({ status: "amount_mismatch", updatedAt: now }).where(eq(pspCharges.transactionId, t.id));
      log.warn({ decision, amount, expected: t.amount }, "api-pix: Pix of another amount than the charge's (recorded, charge not paid)");
    } else {
      if (decision === "paid_after_expiry") await note("psp_paid_after_expiry");
      const ctx = pspCtx(account, now);
      const paid = await recordRailPayment(ctx, { transactionId: t.id, amount, end2endId: pix.endToEndId, paidAt }, tx, { whenLinkPaid: "keep" });
      await tx
        .update(pspCharges)
        .set({ status: "paid", e2eid: pix.endToEndId, updatedAt: now })
        .where(and(eq(pspCharges.transactionId, t.id), sql`${pspCharges.status} <> 'paid'`));
      if (paid.duplicateOfId !== null && paid.status === "paid") {
        log.warn({ decision, duplicateOf: paid.duplicateOfId }, "api-pix: a payment link already paid was paid again: devolução opened");
        return { decision, duplicateReturn: await openDuplicateReturn(tx, ctx, paid) };
      }
      log.info({ decision }, "api-pix: charge paid");
    }
    return { decision };
  });
}

/** The charge of the account with this txid, if it is ours. */
export async function chargeByTxid(companyId: number, txid: string): Promise<PspChargeRow | null> {
  const [row] = await getDb()
    .select()
    .from(pspCharges)
    .where(and(eq(pspCharges.companyId, companyId), eq(pspCharges.txid, txid)));
  return row ?? null;
}
