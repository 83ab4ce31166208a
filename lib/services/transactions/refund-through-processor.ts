/**
 * A refund goes to the processor that took the payment: a PIX received through an API Pix PSP is
 * returned by that PSP (a devolução, booked when the PSP says DEVOLVIDO); everything else is
 * refunded at once by refundTransaction.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import { API_PIX_PROCESSOR } from "@/lib/processors/api-pix/config";
import { requestApiPixRefund, type PspRefundRow } from "@/lib/services/psp/api-pix-refunds";

/**
 * The transaction after the refund, and, for a devolução at the merchant's PSP, the refund opened
 * (held, not yet asked): the caller asks the PSP with askPspForRefund once its transaction has
 * committed, never inside it.
 */
export type RefundOutcome = { transaction: TransactionRow; pspRefund?: PspRefundRow };

export async function refundThroughProcessor(
  ctx: ServiceContext,
  transactionId: number | string,
  input: { amount?: number },
  outer?: Tx,
): Promise<RefundOutcome> {
  const id = typeof transactionId === "number" ? transactionId : /^\d{1,15}$/.test(transactionId) ? Number(transactionId) : NaN;
  if (Number.isSafeInteger(id)) {
    const [t] = await (outer ?? getDb())
      .select({ acquirerType: transactions.acquirerType, paymentMethod: transactions.paymentMethod })
      .from(transactions)
      .where(and(eq(transactions.id, id), eq(transactions.companyId, ctx.account.id)));
    if (t?.acquirerType === API_PIX_PROCESSOR && t.paymentMethod === "pix") {
      const { transaction, refund } = await requestApiPixRefund(ctx, id, input, outer);
      return { transaction, pspRefund: refund };
    }
  }
  return { transaction: await refundTransaction(ctx, transactionId, input, outer) };
}
