/**
 * Refunds of PIX received through an API Pix PSP: `PUT /pix/{e2eid}/devolucao/{id}` with an id
 * Arara draws and keeps (psp_refunds), so asking again after a timeout is the same request.
 *
 * Money semantics: the refund is paid when the PSP says DEVOLVIDO, and held from the request on.
 * In the transaction that writes the psp_refunds row, the money table's `psp_refund_requested`
 * moves its amount from the merchant's available balance to reserved, by a guarded debit under
 * the balance row's lock (as a cash-out request does): two requests, or a request and any other
 * debit, cannot both spend the same money, and the booking at DEVOLVIDO is covered. Until then the
 * refund is open (requested / processing) and its amount counts against what may still be
 * refunded, so two refunds can never exceed what was paid. DEVOLVIDO books the refund (for the
 * amount the PSP says it returned, at most what was asked; the rest of the hold released) from
 * reserved (refundTransaction with `fromReserve`: journal, refundedAmount, the move to `refunded`
 * on a full refund and its webhook) with the row marked done, in one transaction. NAO_REALIZADO (or
 * a refusal by the PSP that, read back by its id, has no such devolução) closes it as failed and
 * `psp_refund_failed` returns what was held to available.
 *
 * The PSP is asked only once the row and its hold have committed (askPspForRefund, the duplicate
 * return, the reconciliation), never from inside a database transaction.
 *
 * The merchant is told how it ended: the transaction that moves a refund out of its open status
 * (to done or failed), and only that one, writes a `refund` notification into the outbox
 * (enqueueRefundEvent) after the executor's move, so the PSP's notification and the reconciliation
 * reporting the same outcome send it once. The transaction resource and its events show the refunds
 * (`refunds`, `pendingRefundAmount`, lib/core/transaction-resource.ts).
 *
 * A refund opened before refunds were held (`reserved` false, from before migration 0016) held
 * nothing: DEVOLVIDO books it from available as it was then (if the balance no longer covers it,
 * it stays open, logged, and is tried again), and a failure has nothing to release.
 *
 * A return made at the PSP without Arara, listed on the Pix (by the PSP itself under Banco Central's
 * MED, natureza MED_*; or by the merchant in the PSP's own app, natureza ORIGINAL or none) is a row of
 * its own (`initiated_by` 'psp', the PSP's id), written and booked by applyMedReturn with the same
 * booking (bookReturned), from availableAtPsp since nothing was held for it.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Queryable, Tx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { companies, pspPixReceived, pspRefunds, transactions, transactionStatusChanges } from "@/lib/db/schema";
import { randomBase62 } from "@/lib/crypto";
import { PSP_MOTIVO_MAX, untrustedLine } from "@/lib/core/untrusted-text";
import { formatBRL } from "@/lib/domain/money";
import { parseWith } from "@/lib/core/validation";
import { paidAmountOf } from "@/lib/domain/journals";
import { getLogger } from "@/lib/logger";
import { RefundRequest } from "@/lib/schemas/money";
import type { Account, ServiceContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { idOrNotFound } from "@/lib/core/ids";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { executeTransaction } from "@/lib/executor/execute";
import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import type { ApiPixClient } from "@/lib/processors/api-pix/client";
import { clientFor, pspConfigOf } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { buildDevolucaoRequest, valorToCents } from "@/lib/processors/api-pix/helpers";
import { devolucaoSchema, type Devolucao, type Pix } from "@/lib/processors/api-pix/schemas";
import { enqueueRefundEvent } from "@/lib/webhooks/outbox";
import { OPEN_PSP_REFUND_STATUSES } from "@/lib/core/transaction-resource";
import type { PspRefundRow } from "@/lib/core/rows";
import { PSP_ACTOR } from "./api-pix-sync";

export type { PspRefundRow };
export const OPEN_REFUND_STATUSES = OPEN_PSP_REFUND_STATUSES;

/**
 * Opens a refund of all or part of a paid PIX (`amount` defaults to what is still refundable), in
 * the caller's transaction if it has one: the psp_refunds row with the devolution id Arara draws,
 * and its hold. Nothing is asked of the PSP here. The caller asks it with askPspForRefund once this
 * has committed, never inside the transaction: a call made inside it would hold the charge's and the
 * balance's row locks for the length of an HTTPS call (on PGlite, the whole database), and if the
 * transaction then rolled back, the PSP would have made a devolução Arara has no record of, and a
 * retry would draw a new id and return the money twice. A refund opened and never asked (a process
 * stopped in between) is asked by the reconciliation.
 */
export async function requestApiPixRefund(
  ctx: ServiceContext,
  transactionId: number | string,
  input: { amount?: number },
  outer?: Tx,
): Promise<{ transaction: TransactionRow; refund: PspRefundRow }> {
  const { amount: requested } = parseWith(RefundRequest, input ?? {}, "refund");
  idOrNotFound(transactionId, "Transaction"); // a malformed id is a 404 before the PSP settings are read
  const config = await pspConfigOf(ctx.account.id, outer);
  if (!config) throw new ServiceError("unprocessable", "This account has no PSP configuration to refund this PIX through.");
  return inTransaction(outer, async (tx) => {
    const t = await getTransaction(ctx, transactionId, tx, { forUpdate: true });
    if (t.status !== "paid" || !t.pixEnd2end) {
      throw new ServiceError("unprocessable", `Only a paid transaction can be refunded; transaction #${t.id} is ${t.status}.`);
    }
    const pending = await openRefundAmountOf(tx, t.id);
    const refundable = paidAmountOf(t) - t.refundedAmount - pending;
    const amount = requested ?? refundable;
    if (amount <= 0 || amount > refundable) {
      throw new ServiceError(
        "unprocessable",
        `The refund of ${formatBRL(amount)} is more than the ${formatBRL(Math.max(0, refundable))} still refundable on transaction #${t.id} (refunds in progress at the PSP: ${formatBRL(pending)}).`,
        [{ field: "amount", message: `must be at most ${Math.max(0, refundable)}` }],
      );
    }
    const row = await openRefund(tx, ctx, t, amount);
    try {
      await executeTransaction(tx, ctx, { cause: "psp_refund_requested", transaction: t, facts: { amount } });
    } catch (e) {
      if (e instanceof ServiceError && e.code === "insufficient_balance") {
        throw new ServiceError(
          "insufficient_balance",
          `The balance at your PSP (availableAtPsp: PIX received there, net of fees and of what was refunded or sent out) does not cover this refund of ${formatBRL(amount)}; refunds in progress at the PSP are already held out of it.`,
        );
      }
      throw e;
    }
    return { transaction: t, refund: row };
  });
}

/**
 * Asks the PSP for a refund requestApiPixRefund opened, once that has committed, with no transaction
 * open. The PSP's answer is acted on at once (DEVOLVIDO books it, EM_PROCESSAMENTO waits); a PSP that
 * does not answer leaves it requested for the reconciliation. A refund that did not happen (refused by
 * the PSP, or NAO_REALIZADO) is closed as failed, its hold released, and reported as a 422: nothing
 * was refunded and nothing stays held. A refund no longer `requested` (its transaction rolled back,
 * or another pass asked already) is left as it is.
 */
export async function askPspForRefund(ctx: ServiceContext, opened: PspRefundRow): Promise<{ transaction: TransactionRow; refund: PspRefundRow }> {
  const [current] = await getDb()
    .select()
    .from(pspRefunds)
    .where(and(eq(pspRefunds.id, opened.id), eq(pspRefunds.companyId, ctx.account.id)));
  let refund = current ?? opened;
  const config = current?.status === "requested" ? await pspConfigOf(current.companyId) : null;
  if (current && config) {
    try {
      refund = await syncRefund(clientFor(config), current, ctx.now);
    } catch (e) {
      if (!(e instanceof ApiPixError && e.retryable)) throw e;
      getLogger().warn({ component: "api-pix", account: ctx.account.id, refund: current.id, code: e.code }, "api-pix refund request not answered: the reconciliation will ask again");
    }
    if (refund.status === "failed") throw new ServiceError("unprocessable", refund.failReason ?? "O PSP não realizou a devolução.");
  }
  return { transaction: await getTransaction(ctx, opened.transactionId), refund };
}

/** What the refunds of a transaction still open at the PSP (requested, processing) hold. */
export async function openRefundAmountOf(q: Queryable, transactionId: number): Promise<number> {
  const [open] = await q
    .select({ sum: sql<string>`coalesce(sum(${pspRefunds.amount}), 0)` })
    .from(pspRefunds)
    .where(and(eq(pspRefunds.transactionId, transactionId), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])));
  return Number(open.sum);
}

/** The psp_refunds row of a devolução about to be held (the caller holds it in the same transaction). */
async function openRefund(tx: Tx, ctx: ServiceContext, t: TransactionRow, amount: number): Promise<PspRefundRow> {
  const [row] = await tx
    .insert(pspRefunds)
    .values({
      companyId: ctx.account.id,
      transactionId: t.id,
      e2eid: t.pixEnd2end!,
      devolucaoId: `A${randomBase62(30)}`,
      amount,
      status: "requested",
      reserved: true,
      nextCheckAt: new Date(ctx.now.getTime() + 60_000),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  return row;
}

/**
 * A PIX that paid a payment link another charge had already paid, received through the merchant's
 * PSP: the money is at the PSP, so it is returned by a devolução there, never booked as returned
 * before the PSP says so. In the caller's transaction (the one that recorded the payment, flagged
 * as a duplicate of the link's payment): the refund row and its hold, unguarded since the payment
 * just credited exactly this. The caller asks the PSP after its commit (syncRefund); the
 * reconciliation asks again if that call never got through.
 */
export async function openDuplicateReturn(tx: Tx, ctx: ServiceContext, t: TransactionRow): Promise<PspRefundRow> {
  const amount = paidAmountOf(t) - t.refundedAmount;
  const row = await openRefund(tx, ctx, t, amount);
  await executeTransaction(tx, ctx, { cause: "psp_refund_requested", transaction: t, facts: { amount, returnsDuplicate: true } });
  return row;
}

async function closeFailed(refund: PspRefundRow, reason: string, now: Date): Promise<PspRefundRow> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(pspRefunds)
      .set({ status: "failed", failReason: reason.slice(0, 500), leaseUntil: null, updatedAt: now })
      .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
      .returning();
    if (!row) return refund; // closed already (another report of the same outcome): nothing is written twice
    const [t] = await tx.select().from(transactions).where(eq(transactions.id, refund.transactionId)).for("update");
    const after = await executeTransaction(tx, { actor: PSP_ACTOR, now }, { cause: "psp_refund_failed", transaction: t, facts: { amount: row.amount, reserved: row.reserved } });
    // The merchant's notification that the money did not go back, with the release that says so.
    await enqueueRefundEvent(tx, after, row, now);
    return row;
  });
}

/**
 * The booking of a devolução the PSP made (DEVOLVIDO), its row locked in `tx`: the row marked done, the
 * refund of `returned` (from reserved when its request held it, else from availableAtPsp, guarded), the
 * `partial_refund`/`refund` move with its timeline and `refunded` event, and the `refund` notification.
 * The one booking of a devolução, for the merchant's own and for a MED return the PSP made by itself.
 */
async function bookReturned(tx: Tx, ctx: ServiceContext, locked: PspRefundRow, dev: Devolucao, returned: number, now: Date): Promise<PspRefundRow> {
  // Marked done before the booking, in the same transaction: the `refunded` event the booking
  // writes for a full refund shows it done, not pending. A booking refused rolls this back too.
  const [row] = await tx
    .update(pspRefunds)
    .set({ status: "done", amount: returned, rtrId: dev.rtrId, failReason: null, leaseUntil: null, updatedAt: now })
    .where(eq(pspRefunds.id, locked.id))
    .returning();
  const after = await refundTransaction(ctx, locked.transactionId, { amount: returned }, tx, { fromReserve: locked.reserved });
  await enqueueRefundEvent(tx, after, row, now);
  return row;
}

/** Acts on the PSP's state of a refund: DEVOLVIDO books it, NAO_REALIZADO fails it, EM_PROCESSAMENTO waits. */
export async function applyDevolucao(refund: PspRefundRow, dev: Devolucao, now: Date): Promise<PspRefundRow> {
  if (refund.initiatedBy === "psp") return (await applyMedReturn(refund, dev, now)) ?? refund;
  if (dev.status === "NAO_REALIZADO") return closeFailed(refund, notMadeReason("Devolução não realizada pelo PSP", dev.motivo), now);
  if (dev.status === "EM_PROCESSAMENTO") {
    const [row] = await getDb()
      .update(pspRefunds)
      .set({ status: "processing", rtrId: dev.rtrId, leaseUntil: null, nextCheckAt: new Date(now.getTime() + 60_000), updatedAt: now })
      .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
      .returning();
    return row ?? refund;
  }
  if (valorToCents(dev.valor) === 0) return closeFailed(refund, "O PSP informou a devolução como realizada, mas de R$ 0,00.", now);
  // DEVOLVIDO: the money went back to the payer; book it with the status move, once.
  try {
    return await getDb().transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(pspRefunds)
        .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
        .for("update");
      if (!locked) return refund;
      // What the PSP says it returned is what is booked. A PSP that follows the API Pix returns the
      // amount asked; one that returned less (never more: Arara books at most what it asked and held)
      // has the rest of the hold released, as for a devolução not made.
      const returned = Math.min(valorToCents(dev.valor), locked.amount);
      const [account] = await tx.select().from(companies).where(eq(companies.id, refund.companyId));
      const ctx: ServiceContext = { account: account as Account, actor: PSP_ACTOR, requestId: "psp:api-pix", now };
      if (returned !== valorToCents(dev.valor) || returned < locked.amount) {
        getLogger().error(
          { component: "api-pix", account: refund.companyId, refund: refund.id, asked: locked.amount, returned: valorToCents(dev.valor) },
          "api-pix devolução DEVOLVIDO for another amount than asked: the PSP's amount booked, at most what was asked",
        );
      }
      if (returned < locked.amount) {
        const [t] = await tx.select().from(transactions).where(eq(transactions.id, refund.transactionId)).for("update");
        await executeTransaction(tx, ctx, { cause: "psp_refund_failed", transaction: t, facts: { amount: locked.amount - returned, reserved: locked.reserved } });
      }
      return bookReturned(tx, ctx, locked, dev, returned, now);
    });
  } catch (e) {
    if (e instanceof ServiceError) {
      getLogger().error(
        { component: "api-pix", account: refund.companyId, refund: refund.id, code: e.code },
        "api-pix refund DEVOLVIDO at the PSP cannot be booked yet: tried again by the reconciliation",
      );
      await getDb()
        .update(pspRefunds)
        .set({ status: "processing", failReason: e.message.slice(0, 500), leaseUntil: null, nextCheckAt: new Date(now.getTime() + 5 * 60_000), updatedAt: now })
        .where(eq(pspRefunds.id, refund.id));
      return refund;
    }
    throw e;
  }
}

/** Re-reads one open refund at the PSP (asking again if the PSP never answered the request). */
export async function syncRefund(client: ApiPixClient, refund: PspRefundRow, now: Date = new Date()): Promise<PspRefundRow> {
  if (refund.initiatedBy === "psp") return syncMedReturn(client, refund, now);
  let dev: Devolucao;
  try {
    dev =
      refund.status === "requested"
        ? await client.requestDevolucao(refund.e2eid, refund.devolucaoId, buildDevolucaoRequest({ amount: refund.amount }))
        : await client.getDevolucao(refund.e2eid, refund.devolucaoId);
  } catch (e) {
    if (e instanceof ApiPixError && !e.retryable && refund.status === "requested") {
      // Nothing was sent: what we would send does not follow the API Pix, and never did.
      if (e.code === "invalid_request") return closeFailed(refund, `O PSP recusou a devolução: ${e.message}`, now);
      // This request may not be the first with this id: an earlier one whose answer was lost (a
      // timeout, a 5xx from the PSP's gateway) may have made the devolução, and a PSP may refuse the
      // repeat (409, 404, 403) or answer it with something we cannot read. A refusal of this request
      // does not say the devolução was not made: read it back by its id, and close the refund as failed
      // (releasing what it held) only when the PSP says it has no such devolução.
      const known = await readBack(client, refund);
      if (known === "absent") return closeFailed(refund, `O PSP recusou a devolução: ${e.message}`, now);
      if (known) return applyDevolucao(refund, known, now);
      getLogger().error(
        { component: "api-pix", account: refund.companyId, refund: refund.id, code: e.code },
        "api-pix refund refused and not readable back: kept open (its amount held) and asked again by the reconciliation",
      );
      return checkAgainLater(refund, now);
    }
    await checkAgainLater(refund, now);
    throw e;
  }
  return applyDevolucao(refund, dev, now);
}

async function checkAgainLater(refund: PspRefundRow, now: Date): Promise<PspRefundRow> {
  const [row] = await getDb()
    .update(pspRefunds)
    .set({ leaseUntil: null, nextCheckAt: new Date(now.getTime() + 2 * 60_000), updatedAt: now })
    .where(eq(pspRefunds.id, refund.id))
    .returning();
  return row ?? refund;
}

/**
 * The PSP's devolução with the refund's id (`GET /pix/{e2eid}/devolucao/{id}`): "absent" when the PSP
 * answers that it has none (404), null when it cannot tell us now (any other failure).
 */
async function readBack(client: ApiPixClient, refund: PspRefundRow): Promise<Devolucao | "absent" | null> {
  try {
    return await client.getDevolucao(refund.e2eid, refund.devolucaoId);
  } catch (e) {
    if (e instanceof ApiPixError && e.code === "not_found") return "absent";
    if (e instanceof ApiPixError) return null;
    throw e;
  }
}

/** Open refunds of one Pix (the PSP's webhook also fires when a refund settles). */
export async function openRefundsOf(companyId: number, e2eid: string): Promise<PspRefundRow[]> {
  return getDb()
    .select()
    .from(pspRefunds)
    .where(and(eq(pspRefunds.companyId, companyId), eq(pspRefunds.e2eid, e2eid), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])));
}

/**
 * What a Pix the PSP answered (`GET /pix/{e2eid}`) says of the returns on it: first Arara's own open
 * devoluções listed there (each read strictly, devolucaoSchema, before it decides anything; one that
 * does not read is left to the refund's own re-read), then the returns made at the PSP without Arara
 * (applyMedReturns: after ours, which a devolução that is not a MED waits for). What the webhook's
 * re-read and the reconciliation's re-read of a received Pix (api-pix-reconcile.ts) both do.
 */
export async function applyReturnsListed(companyId: number, pix: Pick<Pix, "endToEndId" | "devolucoes">, now: Date): Promise<void> {
  for (const refund of await openRefundsOf(companyId, pix.endToEndId)) {
    const listed = (pix.devolucoes ?? []).find((d) => d.id === refund.devolucaoId);
    const dev = listed ? devolucaoSchema.safeParse(listed) : null;
    if (dev?.success) await applyDevolucao(refund, dev.data, now);
  }
  await applyMedReturns(companyId, pix, now);
}

// ---- Returns the PSP makes by itself (MED) -------------------------------------------------------

/**
 * DevolucaoNatureza of the devoluções a PSP makes without the receiving user asking, under Banco
 * Central's Mecanismo Especial de Devolução (API Pix 2.8.1): after a fraud or operational claim, or
 * for Pix Automático.
 */
export const MED_NATUREZAS = ["MED_OPERACIONAL", "MED_FRAUDE", "MED_PIX_AUTOMATICO"] as const;

/** A return under the MED: the three naturezas of 2.8.1, and any MED_* Banco Central adds later. */
export function isMedReturn(d: { natureza?: string | null }): boolean {
  return (MED_NATUREZAS as readonly string[]).includes(d.natureza ?? "") || (d.natureza ?? "").startsWith("MED_");
}

/** The Pix decisions that paid one of our charges (its money counted in availableAtPsp). */
export const PAYING_DECISIONS = ["paid", "paid_after_expiry"] as const;

type MedSubject = Pick<PspRefundRow, "companyId" | "transactionId" | "e2eid">;

/**
 * The returns made at the PSP without Arara listed on a Pix the PSP showed us (`GET /pix/{e2eid}`, a
 * cob's `pix[]`, a `GET /pix` page), each acted on by applyMedReturn: the PSP's own under Banco
 * Central's MED (natureza MED_*), and any other devolução whose id is not one of ours (natureza
 * ORIGINAL, or absent, which the spec reads as ORIGINAL): the merchant returned the money in the
 * bank's own app or internet banking, or a PSP that leaves natureza out made a MED return. Either way
 * the money left the merchant's PSP account: not booking it would leave availableAtPsp and
 * refundedAmount counting money that is gone. Our own devoluções are listed there too, and must never
 * be booked a second time: applyMedReturn knows them by id (their row is written before the PSP is
 * asked); here, one listed under an id that is ours but for its case (a PSP that rewrites ids) or
 * with the return id (rtrId) one of ours carries is ours too, and while one of ours on this Pix is
 * still open, a devolução that is not a MED waits (it may be ours under an id the PSP gave it: ours
 * settles first, by its own re-read, and the next read decides). Only a Pix that paid one of this account's charges counts: any other (not ours, an amount
 * mismatch, a duplicate) put nothing in availableAtPsp, so nothing of it is booked. Read leniently,
 * decided strictly: a devolução is re-read with devolucaoSchema (id, valor, status) before it decides
 * anything; one that does not read is logged and left for a later read.
 */
export async function applyMedReturns(companyId: number, pix: Pick<Pix, "endToEndId" | "devolucoes">, now: Date): Promise<void> {
  const listedReturns = pix.devolucoes ?? [];
  if (listedReturns.length === 0) return;
  const [received] = await getDb()
    .select({ transactionId: pspPixReceived.transactionId, decision: pspPixReceived.decision })
    .from(pspPixReceived)
    .where(and(eq(pspPixReceived.e2eid, pix.endToEndId), eq(pspPixReceived.companyId, companyId)));
  if (!received || !(PAYING_DECISIONS as readonly string[]).includes(received.decision)) return;
  const ours = await getDb()
    .select({ devolucaoId: pspRefunds.devolucaoId, rtrId: pspRefunds.rtrId, status: pspRefunds.status })
    .from(pspRefunds)
    .where(and(eq(pspRefunds.companyId, companyId), eq(pspRefunds.e2eid, pix.endToEndId), eq(pspRefunds.initiatedBy, "merchant")));
  const oursOpen = ours.some((o) => (OPEN_REFUND_STATUSES as readonly string[]).includes(o.status));
  for (const listed of listedReturns) {
    const dev = devolucaoSchema.safeParse(listed);
    if (!dev.success) {
      getLogger().warn(
        { component: "api-pix", account: companyId, transaction: received.transactionId, natureza: listed.natureza },
        "api-pix: a devolução listed on a Pix does not read (id, valor or status): not booked, read again with the Pix",
      );
      continue;
    }
    const d = dev.data;
    const mine = ours.find((o) => o.devolucaoId === d.id || o.devolucaoId.toLowerCase() === d.id.toLowerCase() || (d.rtrId && o.rtrId === d.rtrId));
    if (mine) {
      if (mine.devolucaoId !== d.id) {
        getLogger().warn(
          { component: "api-pix", account: companyId, transaction: received.transactionId, devolucao: mine.devolucaoId, listedAs: d.id },
          "api-pix: one of Arara's devoluções is listed by the PSP under another id: left to its own re-read, not booked again",
        );
      }
      continue;
    }
    if (oursOpen && !isMedReturn(d)) continue;
    await applyMedReturn({ companyId, transactionId: received.transactionId, e2eid: pix.endToEndId }, d, now);
  }
}

/** When to read an open MED return again: a tenth of its age, between `min` and an hour. */
function medRecheckAt(row: Pick<PspRefundRow, "createdAt"> | null, now: Date, min: number): Date {
  const age = row ? now.getTime() - row.createdAt.getTime() : 0;
  return new Date(now.getTime() + Math.min(3_600_000, Math.max(min, Math.floor(age / 10))));
}

const medFields = (subject: MedSubject, dev: Devolucao) => ({
  component: "api-pix",
  account: subject.companyId,
  transaction: subject.transactionId,
  devolucao: dev.id,
  natureza: dev.natureza,
  amount: valorToCents(dev.valor),
  motivo: untrustedLine(dev.motivo, PSP_MOTIVO_MAX),
});

/**
 * One MED return of a Pix that paid `subject.transactionId`, as the PSP shows it now. Booked once: it
 * is a psp_refunds row `initiated_by = 'psp'` keyed by (e2eid, the PSP's devolução id), inserted (on
 * conflict do nothing) in the database transaction that books it, under the transaction's row lock,
 * so a webhook and the reconciliation (on any instances) seeing it at once book it once.
 *
 * - EM_PROCESSAMENTO: nothing booked; the row is written `processing` (its amount counts as a refund in
 *   progress: the merchant cannot refund it too) and the reconciliation reads it again (syncMedReturn).
 * - NAO_REALIZADO: nothing booked; a row seen in processing before is closed as failed (no hold to release).
 * - DEVOLVIDO: booked as a refund the PSP made (bookReturned, the booking of any devolução: from
 *   availableAtPsp, since it held nothing), for at most what is still refundable, with a timeline entry
 *   `psp_med_return` and the merchant's `refund` notification (and `refunded` when it is all).
 *   What cannot be booked is never forced past an invariant: with nothing left to refund (already
 *   refunded in full) the row is closed as failed; when availableAtPsp does not cover it (the merchant
 *   moved the money; available_at_psp never goes below zero, ledger:check rule 4) it stays open and is
 *   tried again. Either way the timeline says `psp_med_return_unbooked` and an error log asks for
 *   attention, once.
 *
 * Returns the row as it stands, or null when there is none (a NAO_REALIZADO never seen before).
 */
export async function applyMedReturn(subject: MedSubject, dev: Devolucao, now: Date): Promise<PspRefundRow | null> {
  const db = getDb();
  const [known] = await db
    .select()
    .from(pspRefunds)
    .where(and(eq(pspRefunds.e2eid, subject.e2eid), eq(pspRefunds.devolucaoId, dev.id)));
  if (known && (known.initiatedBy !== "psp" || known.companyId !== subject.companyId)) return known; // an id of ours: not a MED return
  if (known && !(OPEN_REFUND_STATUSES as readonly string[]).includes(known.status)) return known; // decided already
  const amount = valorToCents(dev.valor);
  if (dev.status === "NAO_REALIZADO" || amount === 0) {
    if (!known) return null;
    return closeFailed(known, notMadeReason(isMedReturn(dev) ? "Devolução MED não realizada pelo PSP" : "Devolução feita fora da Arara não realizada pelo PSP", dev.motivo), now);
  }
  const values = {
    companyId: subject.companyId,
    transactionId: subject.transactionId,
    e2eid: subject.e2eid,
    devolucaoId: dev.id,
    amount,
    status: "processing",
    reserved: false,
    initiatedBy: "psp",
    natureza: dev.natureza ?? null,
    motivo: untrustedLine(dev.motivo, PSP_MOTIVO_MAX),
    rtrId: dev.rtrId ?? null,
    nextCheckAt: medRecheckAt(null, now, 60_000),
    createdAt: now,
    updatedAt: now,
  } satisfies typeof pspRefunds.$inferInsert;
  if (dev.status === "EM_PROCESSAMENTO") {
    if (known) {
      const [row] = await db
        .update(pspRefunds)
        .set({ leaseUntil: null, nextCheckAt: medRecheckAt(known, now, 60_000), updatedAt: now })
        .where(and(eq(pspRefunds.id, known.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
        .returning();
      return row ?? known;
    }
    const [row] = await db.insert(pspRefunds).values(values).onConflictDoNothing().returning();
    if (row) getLogger().warn(medFields(subject, dev), "api-pix: a MED return in progress at the PSP: booked when the PSP says DEVOLVIDO");
    return row ?? null;
  }

  // DEVOLVIDO: the money left the merchant's PSP account.
  return db.transaction(async (tx) => {
    const [t] = await tx.select().from(transactions).where(eq(transactions.id, subject.transactionId)).for("update");
    await tx.insert(pspRefunds).values(values).onConflictDoNothing();
    const [locked] = await tx
      .select()
      .from(pspRefunds)
      .where(and(eq(pspRefunds.e2eid, subject.e2eid), eq(pspRefunds.devolucaoId, dev.id)))
      .for("update");
    if (!locked || locked.initiatedBy !== "psp" || !(OPEN_REFUND_STATUSES as readonly string[]).includes(locked.status)) return locked ?? null;
    const [account] = await tx.select().from(companies).where(eq(companies.id, subject.companyId));
    const ctx: ServiceContext = { account: account as Account, actor: PSP_ACTOR, requestId: "psp:api-pix", now };
    const refundable = t.status === "paid" ? paidAmountOf(t) - t.refundedAmount : 0;
    const returned = Math.min(amount, refundable);
    const log = getLogger();
    let refused: ServiceError | null = null;
    if (returned > 0) {
      try {
        // A savepoint: a booking refused (the guard, before any posting) undoes its move, timeline and events.
        const row = await tx.transaction(async (sp) => {
          await sp.insert(transactionStatusChanges).values({ transactionId: t.id, fromStatus: t.status, toStatus: t.status, cause: "psp_med_return", amount: returned, actor: PSP_ACTOR, pspRefundId: locked.id, createdAt: now });
          return bookReturned(sp, ctx, locked, dev, returned, now);
        });
        if (returned < amount) {
          log.error(
            { ...medFields(subject, dev), booked: returned },
            "api-pix: a MED return of more than was still refundable: booked up to what was paid, the rest not (needs attention: check it at the PSP)",
          );
        } else {
          log.warn({ ...medFields(subject, dev), booked: returned }, "api-pix: a return made at the PSP without Arara (MED, or in the PSP's app) booked as a refund");
        }
        return row;
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        refused = e;
      }
    }
    const first = locked.failReason === null;
    if (first) {
      await tx.insert(transactionStatusChanges).values({ transactionId: t.id, fromStatus: t.status, toStatus: t.status, cause: "psp_med_return_unbooked", amount, actor: PSP_ACTOR, pspRefundId: locked.id, createdAt: now });
    }
    if (!refused) {
      // Nothing left to refund: never more than was paid. The PSP says it returned money Arara no
      // longer counts; closed, for a person to look at.
      const reason = `${returnMade(dev, amount)} não registrada: nada mais a reembolsar nesta transação (${t.status}, ${formatBRL(t.refundedAmount)} já reembolsados). Verificar no PSP.`;
      const [row] = await tx
        .update(pspRefunds)
        .set({ status: "failed", failReason: reason.slice(0, 500), leaseUntil: null, nextCheckAt: null, updatedAt: now })
        .where(eq(pspRefunds.id, locked.id))
        .returning();
      log.error({ ...medFields(subject, dev), refundable }, "api-pix: a MED return on a transaction with nothing left to refund: not booked (needs attention: check it at the PSP)");
      return row;
    }
    // Not covered (availableAtPsp short: the merchant moved the money), or refused otherwise: kept
    // open, tried again as the balance may come to cover it.
    const [row] = await tx
      .update(pspRefunds)
      .set({
        failReason: (refused.code === "insufficient_balance"
          ? `${returnMade(dev, returned)} ainda não registrada: o saldo no PSP (availableAtPsp) não a cobre. Verificar no PSP.`
          : `${returnMade(dev, returned)} ainda não registrada: ${refused.message}`
        ).slice(0, 500),
        rtrId: dev.rtrId ?? locked.rtrId,
        leaseUntil: null,
        nextCheckAt: medRecheckAt(locked, now, 5 * 60_000),
        updatedAt: now,
      })
      .where(eq(pspRefunds.id, locked.id))
      .returning();
    (first ? log.error : log.warn).call(
      log,
      { ...medFields(subject, dev), code: refused.code },
      "api-pix: a MED return made by the PSP cannot be booked (availableAtPsp does not cover it): kept open and tried again (needs attention: check it at the PSP)",
    );
    return row;
  });
}

/** A return made at the PSP without Arara, as a reason names it. */
function returnMade(dev: Devolucao, cents: number): string {
  return isMedReturn(dev)
    ? `Devolução MED (${dev.natureza}) de ${formatBRL(cents)} feita pelo PSP`
    : `Devolução de ${formatBRL(cents)} feita na sua conta do PSP, fora da Arara,`;
}

/** Why a devolução was not made, with the PSP's motivo (its free text, one line, capped) when it gave one. */
function notMadeReason(what: string, motivo: string | undefined): string {
  const line = untrustedLine(motivo, PSP_MOTIVO_MAX);
  return `${what}${line ? `: ${line.replace(/\.$/, "")}` : ""}.`;
}

/** Re-reads an open MED return with its Pix (`GET /pix/{e2eid}`: the PSP's id may not be one `GET .../devolucao/{id}` serves). */
async function syncMedReturn(client: ApiPixClient, refund: PspRefundRow, now: Date): Promise<PspRefundRow> {
  let pix: Pix;
  try {
    pix = await client.getPix(refund.e2eid);
  } catch (e) {
    await checkAgainLater(refund, now);
    throw e;
  }
  const listed = (pix.devolucoes ?? []).find((d) => d.id === refund.devolucaoId);
  const dev = listed ? devolucaoSchema.safeParse(listed) : null;
  if (!dev?.success) {
    getLogger().warn({ component: "api-pix", account: refund.companyId, refund: refund.id }, "api-pix: an open MED return not listed (or not readable) on its Pix: read again later");
    const [row] = await getDb()
      .update(pspRefunds)
      .set({ leaseUntil: null, nextCheckAt: medRecheckAt(refund, now, 5 * 60_000), updatedAt: now })
      .where(eq(pspRefunds.id, refund.id))
      .returning();
    return row ?? refund;
  }
  return (await applyMedReturn(refund, dev.data, now)) ?? refund;
}

export { clientFor };
