/**
 * The columns the rows of the money table (lib/domain/transitions.ts) set from their facts, where
 * it takes more than naming them: a payment, and a refund checked against what is refundable.
 */
import { refundableOf, type TransactionMoney } from "./journals";
import type { PaymentFacts, TransactionPatch } from "./transition-types";

/** The patch of a row that sets no column besides the status. */
export const noColumns = () => ({});

export function paymentPatch(f: PaymentFacts): TransactionPatch {
  const { returnedAsDuplicateOf, ...columns } = f;
  return returnedAsDuplicateOf === undefined
    ? columns
    : { ...columns, duplicateOfId: returnedAsDuplicateOf, feeFixed: 0, feeEstimated: 0 };
}

export function refundedTo(before: TransactionMoney, amount: number, full: boolean): TransactionPatch {
  const refundable = refundableOf(before);
  // The verb checks the amount against what is refundable (422); these are the table's own limits.
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > refundable || (full && amount !== refundable) || (!full && amount === refundable)) {
    throw new Error(
      `A ${full ? "full" : "partial"} refund of ${amount} does not fit transaction ${before.id} (${refundable} refundable).`,
    );
  }
  return { refundedAmount: before.refundedAmount + amount };
}
