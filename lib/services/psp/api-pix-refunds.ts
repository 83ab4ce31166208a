/**
 * Refunds of PIX received through an API Pix PSP: `PUT /pix/{e2eid}/devolucao/{id}` with an id
 * Arara draws and keeps (psp_refunds), so asking again after a timeout is the same request.
 *
 * Money semantics: the refund's money moves when the PSP says DEVOLVIDO, not before. Until then
 * the refund is open (requested / processing) and its amount counts against what may still be
 * refunded, so two refunds can never exceed what was paid; the ledger journal, refundedAmount,
 * the status move to `refunded` (a full refund) and its webhook come together, through
 * refundTransaction, in the transaction that books DEVOLVIDO. NAO_REALIZADO (or a refusal by the
 * PSP) closes the refund as failed, with an entry on the timeline; nothing was booked, so nothing
 * is released. A refund the PSP returned but the ledger cannot book (the merchant's available
 * balance no longer covers it) stays open and is tried again by the reconciliation, logged.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { companies, pspRefunds, transactions, transactionStatusChanges } from "@/lib/db/schema";
import { randomBase62 } from "@/lib/crypto";
import { formatBRL } from "@/lib/domain/money";
import { parseWith } from "@/lib/core/validation";
import { paidAmountOf } from "@/lib/domain/journals";
import { getLogger } from "@/lib/logger";
import { RefundRequest } from "@/lib/schemas/money";
import type { Account, ServiceContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { idOrNotFound } from "@/lib/core/ids";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { getBalance } from "@/lib/services/accounts/get-balance";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import type { ApiPixClient } from "@/lib/processors/api-pix/client";
import { clientFor, pspConfigOf } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { buildDevolucaoRequest } from "@/lib/processors/api-pix/helpers";
import type { Devolucao } from "@/lib/processors/api-pix/schemas";
import { PSP_ACTOR } from "./api-pix-sync";

export type PspRefundRow = typeof pspRefunds.$inferSelect;
export const OPEN_REFUND_STATUSES = ["requested", "processing"] as const;

/**
 * Asks the PSP to return all or part of a paid PIX (`amount` defaults to what is still refundable).
 * Returns the transaction as it is: still `paid` until the PSP reports DEVOLVIDO. A PSP that is
 * down does not lose the request: it stays `requested` and the reconciliation asks again.
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
  const client = clientFor(config);
  const refund = await inTransaction(outer, async (tx) => {
    const t = await getTransaction(ctx, transactionId, tx, { forUpdate: true });
    if (t.status !== "paid" || !t.pixEnd2end) {
      throw new ServiceError("unprocessable", `Only a paid transaction can be refunded; transaction #${t.id} is ${t.status}.`);
    }
    const [open] = await tx
      .select({ sum: sql<string>`coalesce(sum(${pspRefunds.amount}), 0)` })
      .from(pspRefunds)
      .where(and(eq(pspRefunds.transactionId, t.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])));
    const pending = Number(open.sum);
    const refundable = paidAmountOf(t) - t.refundedAmount - pending;
    const amount = requested ?? refundable;
    if (amount <= 0 || amount > refundable) {
      throw new ServiceError(
        "unprocessable",
        `The refund of ${formatBRL(amount)} is more than the ${formatBRL(Math.max(0, refundable))} still refundable on transaction #${t.id} (refunds in progress at the PSP: ${formatBRL(pending)}).`,
        [{ field: "amount", message: `must be at most ${Math.max(0, refundable)}` }],
      );
    }
    // The money moves at DEVOLVIDO, from available: refuse now what the balance could not book then
    // (refunds already open at the PSP count as spent).
    const [openAll] = await tx
      .select({ sum: sql<string>`coalesce(sum(${pspRefunds.amount}), 0)` })
      .from(pspRefunds)
      .where(and(eq(pspRefunds.companyId, ctx.account.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])));
    const { available } = await getBalance(ctx, tx);
    if (available - Number(openAll.sum) < amount) {
      throw new ServiceError(
        "insufficient_balance",
        `The available balance (${formatBRL(available)}, of which ${formatBRL(Number(openAll.sum))} is held by refunds in progress) does not cover this refund of ${formatBRL(amount)}.`,
      );
    }
    const [row] = await tx
      .insert(pspRefunds)
      .values({
        companyId: ctx.account.id,
        transactionId: t.id,
        e2eid: t.pixEnd2end,
        devolucaoId: `A${randomBase62(30)}`,
        amount,
        status: "requested",
        nextCheckAt: new Date(ctx.now.getTime() + 60_000),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    await tx.insert(transactionStatusChanges).values({
      transactionId: t.id,
      fromStatus: t.status,
      toStatus: t.status,
      cause: "psp_refund_requested",
      amount,
      actor: ctx.actor,
      createdAt: ctx.now,
    });
    return row;
  });
  // The request itself. A refusal by the PSP undoes nothing already committed: it closes the refund as failed.
  let dev: Devolucao | null = null;
  try {
    dev = await client.requestDevolucao(refund.e2eid, refund.devolucaoId, buildDevolucaoRequest({ amount: refund.amount }));
  } catch (e) {
    if (!(e instanceof ApiPixError)) throw e;
    if (!e.retryable) {
      await closeFailed(refund, `O PSP recusou a devolução: ${e.message}`, ctx.now, outer);
      throw new ServiceError("unprocessable", `O PSP recusou a devolução: ${e.message}`);
    }
    getLogger().warn({ component: "api-pix", account: ctx.account.id, refund: refund.id, code: e.code }, "api-pix refund request not answered: the reconciliation will ask again");
  }
  const after = dev ? await applyDevolucao(refund, dev, ctx.now, outer) : refund;
  const [t] = await (outer ?? getDb()).select().from(transactions).where(eq(transactions.id, refund.transactionId));
  return { transaction: t, refund: after };
}

async function closeFailed(refund: PspRefundRow, reason: string, now: Date, outer?: Tx): Promise<PspRefundRow> {
  return inTransaction(outer, async (tx) => {
    const [row] = await tx
      .update(pspRefunds)
      .set({ status: "failed", failReason: reason.slice(0, 500), leaseUntil: null, updatedAt: now })
      .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
      .returning();
    if (!row) return refund;
    const [t] = await tx.select({ status: transactions.status }).from(transactions).where(eq(transactions.id, refund.transactionId));
    await tx.insert(transactionStatusChanges).values({
      transactionId: refund.transactionId,
      fromStatus: t.status,
      toStatus: t.status,
      cause: "psp_refund_failed",
      amount: refund.amount,
      actor: PSP_ACTOR,
      createdAt: now,
    });
    return row;
  });
}

/** Acts on the PSP's state of a refund: DEVOLVIDO books it, NAO_REALIZADO fails it, EM_PROCESSAMENTO waits. */
export async function applyDevolucao(refund: PspRefundRow, dev: Devolucao, now: Date, outer?: Tx): Promise<PspRefundRow> {
  if (dev.status === "NAO_REALIZADO") return closeFailed(refund, `Devolução não realizada pelo PSP${dev.motivo ? `: ${dev.motivo}` : ""}.`, now, outer);
  if (dev.status === "EM_PROCESSAMENTO") {
    const [row] = await (outer ?? getDb())
      .update(pspRefunds)
      .set({ status: "processing", rtrId: dev.rtrId, leaseUntil: null, nextCheckAt: new Date(now.getTime() + 60_000), updatedAt: now })
      .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
      .returning();
    return row ?? refund;
  }
  // DEVOLVIDO: the money went back to the payer; book it with the status move, once.
  try {
    return await inTransaction(outer, async (tx) => {
      const [locked] = await tx
        .select()
        .from(pspRefunds)
        .where(and(eq(pspRefunds.id, refund.id), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])))
        .for("update");
      if (!locked) return refund;
      const [account] = await tx.select().from(companies).where(eq(companies.id, refund.companyId));
      const ctx: ServiceContext = { account: account as Account, actor: PSP_ACTOR, requestId: "psp:api-pix", now };
      await refundTransaction(ctx, refund.transactionId, { amount: refund.amount }, tx);
      const [row] = await tx
        .update(pspRefunds)
        .set({ status: "done", rtrId: dev.rtrId, leaseUntil: null, updatedAt: now })
        .where(eq(pspRefunds.id, refund.id))
        .returning();
      return row;
    });
  } catch (e) {
    if (e instanceof ServiceError) {
      getLogger().error(
        { component: "api-pix", account: refund.companyId, refund: refund.id, code: e.code },
        "api-pix refund DEVOLVIDO at the PSP cannot be booked yet: tried again by the reconciliation",
      );
      await (outer ?? getDb())
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
  let dev: Devolucao;
  try {
    dev =
      refund.status === "requested"
        ? await client.requestDevolucao(refund.e2eid, refund.devolucaoId, buildDevolucaoRequest({ amount: refund.amount }))
        : await client.getDevolucao(refund.e2eid, refund.devolucaoId);
  } catch (e) {
    if (e instanceof ApiPixError && !e.retryable && refund.status === "requested") return closeFailed(refund, `O PSP recusou a devolução: ${e.message}`, now);
    await getDb()
      .update(pspRefunds)
      .set({ leaseUntil: null, nextCheckAt: new Date(now.getTime() + 2 * 60_000), updatedAt: now })
      .where(eq(pspRefunds.id, refund.id));
    throw e;
  }
  return applyDevolucao(refund, dev, now);
}

/** Open refunds of one Pix (the PSP's webhook also fires when a refund settles). */
export async function openRefundsOf(companyId: number, e2eid: string): Promise<PspRefundRow[]> {
  return getDb()
    .select()
    .from(pspRefunds)
    .where(and(eq(pspRefunds.companyId, companyId), eq(pspRefunds.e2eid, e2eid), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES])));
}

export { clientFor };
