import type { Tx } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { paidAmountOf } from "@/lib/domain/journals";
import { formatBRL } from "@/lib/domain/money";
import { executeTransaction } from "@/lib/executor/execute";
import { parseWith } from "@/lib/core/validation";
import { RefundRequest } from "@/lib/schemas/money";
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
    return executeTransaction(tx, ctx, { cause, transaction: t, facts: { amount, ...(opts.fromReserve ? { fromReserve: true } : {}) } });
  });
}
