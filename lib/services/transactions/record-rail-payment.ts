/**
 * recordRailPayment: the one function a payment rail's confirmation calls.
 *
 * When a PSP confirms that a PIX charge was paid (its webhook or its polling gives the end-to-end id,
 * the amount and the time), or a bank reports a boleto cleared, the processor that received the
 * confirmation calls this with the transaction it belongs to, in the merchant's account
 * (`systemContext(account)` or an actor naming the PSP). Money that arrived is never refused here:
 *
 * - a pending (or processing) charge becomes paid: timeline entry, ledger payment journal and `paid`
 *   webhook, in one database transaction. Expiry does not stop it: the rail is the authority on
 *   whether the payer's money moved.
 * - a charge of a payment link that another charge already paid (the payer paid the PIX and the
 *   boleto) is recorded as paid and refunded in full at once, in that same transaction, with
 *   `paid` then `refunded` webhooks and the reason on its timeline (lib/services/checkouts/link-payment.ts),
 *   when Arara holds the money (the sandbox). A rail whose money sits at the merchant's own PSP
 *   passes `whenLinkPaid: "keep"`: the charge is recorded as paid, flagged as the duplicate
 *   (`duplicateOfId`), and the caller asks its PSP to return it; it is never called returned
 *   before the PSP returned it.
 * - the same confirmation again (a PSP retrying its webhook) changes nothing and returns the
 *   charge; another end-to-end id for a charge already paid is a 409 for a person to look at.
 *
 * `amount` is what the payer paid as the rail reports it (recorded as paidAmount); `outer`: the
 * caller's transaction, if it has one (the charge is then a savepoint of it).
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { transactions } from "@/lib/db/schema";
import { END2END_REGEX } from "@/lib/domain/pix/end2end";
import { parseWith } from "@/lib/core/validation";
import type { ServiceContext } from "../context";
import { ServiceError, notFound, unprocessable } from "../errors";
import { lockLink, payCharge } from "../checkouts/link-payment";
import type { TransactionRow } from "./transaction-view";

export const RailPayment = z.object({
  transactionId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** Centavos received. */
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The PIX end-to-end id (required for a PIX; none for a boleto). */
  end2endId: z.string().regex(END2END_REGEX, "must be a PIX end-to-end id (E + ISPB + yyyyMMddHHmm + 11 alphanumerics)").optional(),
  paidAt: z.date().refine((d) => !Number.isNaN(d.getTime()), "must be a valid date"),
});
export type RailPayment = z.infer<typeof RailPayment>;

export async function recordRailPayment(
  ctx: ServiceContext,
  input: RailPayment,
  outer?: Tx,
  opts: { whenLinkPaid?: "return" | "keep" } = {},
): Promise<TransactionRow> {
  const payment = parseWith(RailPayment, input, "rail payment");
  return inTransaction(outer, async (tx) => {
    const [seen] = await tx
      .select({ checkoutId: transactions.checkoutId })
      .from(transactions)
      .where(and(eq(transactions.id, payment.transactionId), eq(transactions.companyId, ctx.account.id)));
    if (!seen) throw notFound("Transaction");
    // The link before the charge, as every payment path does (payCharge takes both again, harmlessly).
    if (seen.checkoutId !== null) await lockLink(tx, seen.checkoutId);
    const [t] = await tx.select().from(transactions).where(eq(transactions.id, payment.transactionId)).for("update");

    if (t.paymentMethod === "credit_card") {
      throw unprocessable(`Transaction ${t.id} is a card charge: the acquirer's decision is recorded when it is made, not as a rail payment.`);
    }
    if (t.paymentMethod === "pix" && !payment.end2endId) {
      throw new ServiceError("validation_error", "A PIX payment needs its end-to-end id.", [{ field: "end2endId", message: "is required for a PIX" }]);
    }
    if (t.paidAt !== null) {
      // Already recorded: the same confirmation again is a no-op; a second, different payment of one
      // charge cannot be recorded on it (one row, one payment) and needs a person.
      if (t.paymentMethod === "boleto" || t.pixEnd2end === payment.end2endId) return t;
      throw new ServiceError(
        "conflict",
        `Transaction ${t.id} was already paid by end-to-end id ${t.pixEnd2end}; ${payment.end2endId} is another payment.`,
      );
    }
    return payCharge(tx, ctx, t.id, {
      patch: {
        paidAt: payment.paidAt,
        paidAmount: payment.amount,
        ...(t.paymentMethod === "pix" ? { pixEnd2end: payment.end2endId } : {}),
      },
      whenLinkPaid: opts.whenLinkPaid ?? "return",
    });
  });
}
