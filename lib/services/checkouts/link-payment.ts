/**
 * A payment link is paid once. Its page may issue several charges (a PIX, then a boleto; a refused
 * card, then another card), and the first one paid is the link's payment. Every path that pays a
 * charge of a link (a card charged on the page, a PIX confirmed by the PSP, a boleto cleared, the
 * sandbox) runs in one database transaction that first locks the link's row (SELECT ... FOR
 * UPDATE) and checks, under that lock, whether another charge already paid it. The lock serialises
 * those paths across processes; the partial unique index `transactions_one_payment_per_link_idx`
 * (lib/db/schema/transactions.ts) holds the rule even for a path that forgot to take it.
 *
 * When the link is already paid: a payment not yet made is refused (409: the card is not charged,
 * the sandbox does not pay); money that already arrived from a rail (a PIX sent cannot be refused)
 * is recorded and returned at once, in the same transaction (`payCharge` with "return"), when
 * Arara holds it (the sandbox). Money that sits at the merchant's own PSP cannot be returned by a
 * journal: it is recorded as paid and flagged as the duplicate (`payCharge` with "keep"), and the
 * caller asks the PSP to return it (lib/services/psp/api-pix-sync.ts); it becomes `refunded` only
 * when the PSP says the money went back.
 */
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Queryable, Tx } from "@/lib/db/client";
import { checkouts, transactions } from "@/lib/db/schema";
import { paidAmountOf } from "@/lib/domain/journals";
import type { PaymentMethod, TransactionStatus } from "@/lib/domain/status";
import { paymentCause, type PaymentFacts } from "@/lib/domain/transitions";
import { executeTransaction } from "@/lib/executor/execute";
import type { CheckoutRow } from "./checkout-view";
import type { ServiceContext } from "../context";
import { ServiceError, notFound } from "../errors";
import type { TransactionRow } from "../transactions/transaction-view";

/** Locks the link's row until the caller's transaction ends. Take it before locking any of its charges. */
export async function lockLink(tx: Tx, checkoutId: number): Promise<CheckoutRow> {
  const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
  if (!row) throw notFound("Payment link");
  return row;
}

export type LinkPayment = { id: number; paymentMethod: PaymentMethod; paidAt: Date };

/** The charge that paid the link (paid at some point, and not a returned duplicate), if any. */
export async function linkPaymentOf(q: Queryable, checkoutId: number): Promise<LinkPayment | null> {
  const [row] = await q
    .select({ id: transactions.id, paymentMethod: transactions.paymentMethod, paidAt: transactions.paidAt })
    .from(transactions)
    .where(and(eq(transactions.checkoutId, checkoutId), isNotNull(transactions.paidAt), isNull(transactions.duplicateOfId)))
    .limit(1);
  return row ? { id: row.id, paymentMethod: row.paymentMethod as PaymentMethod, paidAt: row.paidAt! } : null;
}

export type ReturnedPayment = { id: number; secureId: string; paymentMethod: PaymentMethod; amount: number; paidAt: Date; returned: boolean };

/**
 * Payments that arrived for a link already paid: returned to the payer (`returned`), or, for money
 * at the merchant's PSP, still paid while the PSP is asked to return it (or after it refused).
 */
export async function returnedPaymentsOf(q: Queryable, checkoutId: number): Promise<ReturnedPayment[]> {
  const rows = await q
    .select({
      id: transactions.id,
      secureId: transactions.secureId,
      paymentMethod: transactions.paymentMethod,
      amount: transactions.paidAmount,
      paidAt: transactions.paidAt,
      status: transactions.status,
    })
    .from(transactions)
    .where(and(eq(transactions.checkoutId, checkoutId), isNotNull(transactions.duplicateOfId)))
    .orderBy(asc(transactions.id));
  return rows.map(({ status, ...r }) => ({ ...r, paymentMethod: r.paymentMethod as PaymentMethod, paidAt: r.paidAt!, returned: status === "refunded" }));
}

/** The conflict of a payment refused because the link was already paid. */
export function linkAlreadyPaid(checkoutId: number, payment: LinkPayment): ServiceError {
  return new ServiceError(
    "conflict",
    `The order of payment link #${checkoutId} is already paid (transaction #${payment.id}); this charge can no longer be paid.`,
    undefined,
    { messagePt: `O link de pagamento #${checkoutId} já foi pago pela transação #${payment.id}; esta cobrança não pode mais ser paga.` },
  );
}

export type ChargePayment = {
  /** Columns the payment sets with the status: paidAt, paidAmount, pixEnd2end, card settlement. */
  patch: PaymentFacts;
  /**
   * When another charge already paid the link: "refuse" a payment that can still be declined (the
   * sandbox's "simulate payment"), "return" money that already arrived and Arara holds (record it
   * and refund it), or "keep" money that arrived at the merchant's own PSP (record it as paid,
   * flagged as the duplicate, fee waived: the caller asks the PSP to return it).
   */
  whenLinkPaid: "refuse" | "return" | "keep";
};

/**
 * Moves a pending or processing charge to paid, in the caller's transaction, under the link rule:
 * locks the charge's link (if any) and then the charge, re-reads it, and pays it (timeline entry,
 * ledger payment journal, `paid` webhook through the executor), or refuses it, or records it as
 * a duplicate, returned at once (see `returnDuplicate`) or kept paid for the PSP to return ("keep").
 */
export async function payCharge(tx: Tx, ctx: ServiceContext, transactionId: number, payment: ChargePayment): Promise<TransactionRow> {
  const [seen] = await tx
    .select({ checkoutId: transactions.checkoutId })
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.companyId, ctx.account.id)));
  if (!seen) throw notFound("Transaction");
  // The link first, then the charge: every path takes them in this order, so none waits on another in a cycle.
  if (seen.checkoutId !== null) await lockLink(tx, seen.checkoutId);
  const [t] = await tx.select().from(transactions).where(eq(transactions.id, transactionId)).for("update");
  const from = t.status as TransactionStatus;
  if (from !== "pending" && from !== "processing") {
    throw new ServiceError("conflict", `Transaction ${t.id} is ${from}; only a pending or processing charge can be paid.`);
  }
  const paidBy = t.checkoutId !== null ? await linkPaymentOf(tx, t.checkoutId) : null;
  if (!paidBy) return executeTransaction(tx, ctx, { cause: paymentCause(t.paymentMethod as PaymentMethod), transaction: t, facts: payment.patch });
  if (payment.whenLinkPaid === "refuse") throw linkAlreadyPaid(t.checkoutId!, paidBy);
  if (payment.whenLinkPaid === "keep") {
    return executeTransaction(tx, ctx, {
      cause: paymentCause(t.paymentMethod as PaymentMethod),
      transaction: t,
      facts: { ...payment.patch, returnedAsDuplicateOf: paidBy.id },
    });
  }
  return returnDuplicate(tx, ctx, t, paidBy, payment.patch);
}

/**
 * Money that arrived for a charge of a link another charge already paid: recorded as paid, and
 * refunded in full at once, in the same database transaction. The payer gets it all back and the
 * merchant neither keeps nor pays anything: the fee is waived (the merchant did not sell twice), so
 * the refund takes back exactly what the payment credited, and it may do so even when a chargeback
 * left the merchant's balance below zero (ledger:check knows this case). The webhooks say `paid`
 * then `refunded`; the timeline's refund entry says why (`duplicate_payment_refund`);
 * `duplicateOfId` names the link's payment, for the payer's page and the dashboard.
 */
async function returnDuplicate(
  tx: Tx,
  ctx: ServiceContext,
  t: TransactionRow,
  paidBy: LinkPayment,
  patch: ChargePayment["patch"],
): Promise<TransactionRow> {
  const paid = await executeTransaction(tx, ctx, {
    cause: paymentCause(t.paymentMethod as PaymentMethod),
    transaction: t,
    facts: { ...patch, returnedAsDuplicateOf: paidBy.id },
  });
  return executeTransaction(tx, ctx, {
    cause: "duplicate_payment_refund",
    transaction: paid,
    facts: { amount: paidAmountOf(paid), checkoutId: t.checkoutId!, paidById: paidBy.id },
  });
}
