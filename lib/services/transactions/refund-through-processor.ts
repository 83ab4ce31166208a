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
import { requestApiPixRefund } from "@/lib/services/psp/api-pix-refunds";

export async function refundThroughProcessor(
  ctx: ServiceContext,
  transactionId: number | string,
  input: { amount?: number },
  outer?: Tx,
): Promise<TransactionRow> {
  const id = typeof transactionId === "number" ? transactionId : /^\d{1,15}$/.test(transactionId) ? Number(transactionId) : NaN;
  if (Number.isSafeInteger(id)) {
    const [t] = await (outer ?? getDb())
      .select({ acquirerType: transactions.acquirerType, paymentMethod: transactions.paymentMethod })
      .from(transactions)
      .where(and(eq(transactions.id, id), eq(transactions.companyId, ctx.account.id)));
    if (t?.acquirerType === API_PIX_PROCESSOR && t.paymentMethod === "pix") {
      return (await requestApiPixRefund(ctx, id, input, outer)).transaction;
    }
  }
  return refundTransaction(ctx, transactionId, input, outer);
}
