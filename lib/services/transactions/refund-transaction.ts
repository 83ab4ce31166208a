import type { Tx } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { paidAmountOf, waitingShare } from "@/lib/domain/journals";
import { formatBRL } from "@/lib/domain/money";
import { executeTransaction } from "@/lib/executor/execute";
import { parseWith } from "@/lib/core/validation";
import { RefundRequest } from "@/lib/schemas/money";
import { getBalance } from "../accounts/get-balance";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { getTransaction } from "./get-transaction";
import type { TransactionRow } from "./transaction-view";

/**
 * Refunds all or part of a paid transaction (`amount` defaults to what is still refundable).
 *
 * - The transaction row is locked (SELECT ... FOR UPDATE) for the whole database transaction, so
 *   two concurrent partial refunds are serialised and the second sees the first's refundedAmount:
 *   together they can never exceed paidAmount.
 * - The money, the row, the timeline and the event are the executor's, under the money table's
 *   `partial_refund` (stays paid, no webhook) or `refund` (to refunded, `refunded` webhook) row.
 *   The merchant's funds are debited by a guarded posting (422 `insufficient_balance` when
 *   available does not cover it; only a chargeback may take available below zero).
 * - `outer`: the caller's transaction (the idempotency layer's); the refund is a savepoint of it.
 * - `fromReserve`: the booking of a PSP's devolução (lib/services/psp/api-pix-refunds.ts), paid
 *   from what its request held in reserved rather than from available.
 */
export async function refundTransaction(
  ctx: ServiceContext,
  transactionId: number | string,
  input: { amount?: number },
  outer?: Tx,
  opts: { fromReserve?: boolean } = {},
): Promise<TransactionRow> {
  const { amount: requested } = parseWith(RefundRequest, input ?? {}, "refund");
  return inTransaction(outer, async (tx) => {
    const t = await getTransaction(ctx, transactionId, tx, { forUpdate: true });
    if (t.status !== "paid") {
      throw new ServiceError("unprocessable", `Only a paid transaction can be refunded; transaction #${t.id} is ${t.status}.`);
    }
    const paid = paidAmountOf(t);
    const refundable = paid - t.refundedAmount;
    const amount = requested ?? refundable;
    if (amount > refundable) {
      throw new ServiceError(
        "unprocessable",
        `The refund of ${formatBRL(amount)} is more than the ${formatBRL(refundable)} still refundable on transaction #${t.id} (paid ${formatBRL(paid)}, already refunded ${formatBRL(t.refundedAmount)}).`,
        [{ field: "amount", message: `must be at most ${refundable}` }],
      );
    }

    const cause = amount < refundable ? "partial_refund" : "refund";
    try {
      return await executeTransaction(tx, ctx, { cause, transaction: t, facts: { amount, ...(opts.fromReserve ? { fromReserve: true } : {}) } });
    } catch (err) {
      // The guard refused the debit before writing anything (lib/ledger/post.ts): say with which figures.
      if (err instanceof ServiceError && err.code === "insufficient_balance" && !opts.fromReserve) throw await refundNotCovered(ctx, tx, t, amount);
      throw err;
    }
  });
}

/**
 * Why a refund is not covered, in figures: a refund debits the sale's own funds still waiting to
 * settle first (an unsettled card) and the rest from available (lib/domain/journals.ts,
 * refundJournal), and the fee is kept on refunds, so even a card sale's own full refund needs the
 * fee's worth of available money. Read in the refund's transaction, after the guard locked the rows.
 */
async function refundNotCovered(ctx: ServiceContext, tx: Tx, t: TransactionRow, amount: number): Promise<ServiceError> {
  const balance = await getBalance(ctx, tx);
  const fromWaiting = Math.min(amount, waitingShare(t));
  const needed = amount - fromWaiting;
  const until = t.settleAt && !t.settledAt ? t.settleAt : null;
  const en = [`The available balance does not cover this refund of ${formatBRL(amount)}: it needs ${formatBRL(needed)} from the available balance, which has ${formatBRL(balance.available)}.`];
  const pt = [`O saldo disponível não cobre este reembolso de ${formatBRL(amount)}: ele precisa de ${formatBRL(needed)} do saldo disponível, que tem ${formatBRL(balance.available)}.`];
  if (fromWaiting > 0) {
    en.push(
      `The other ${formatBRL(fromWaiting)} comes from this card sale's own funds, which wait in waitingFunds until they settle${until ? ` (on ${until.toISOString().slice(0, 10)})` : ""}; the fee is kept on refunds, so the rest must come from available money.`,
    );
    pt.push(
      `Os outros ${formatBRL(fromWaiting)} saem do próprio valor desta venda no cartão, que fica a receber até a liquidação${until ? ` (em ${dateBR(until)})` : ""}; a tarifa não é devolvida no reembolso, por isso o restante precisa vir do saldo disponível.`,
    );
  } else {
    // Settled, or never waiting: the whole refund comes from available, where the sale put only its net.
    const netLeft = Math.max(0, paidAmountOf(t) - t.feeEstimated - t.refundedAmount);
    if (t.feeEstimated > 0 && amount > netLeft) {
      en.push(`The fee on this sale (${formatBRL(t.feeEstimated)}) is kept on refunds, so refunding all of it needs other available money.`);
      pt.push(`A tarifa desta venda (${formatBRL(t.feeEstimated)}) não é devolvida no reembolso, por isso reembolsar o valor todo precisa de outro saldo disponível.`);
    }
  }
  if (fromWaiting === 0 && balance.waitingFunds > 0) {
    en.push(`Card sales wait in waitingFunds (${formatBRL(balance.waitingFunds)} now) until they settle, and only then become available.`);
    pt.push(`Vendas no cartão ficam a receber (${formatBRL(balance.waitingFunds)} agora) até a liquidação, e só então entram no saldo disponível.`);
  }
  return new ServiceError(
    "insufficient_balance",
    en.join(" "),
    [{ field: "amount", message: `needs ${formatBRL(needed)} of available balance; available is ${formatBRL(balance.available)}` }],
    { messagePt: pt.join(" ") },
  );
}

const dateBR = (d: Date) => new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "America/Sao_Paulo" }).format(d);
