/**
 * What the gateway keeps from a charge. Basis points keep rates integral (399 bp = 3.99%), and the
 * percentage is rounded once, half up to the centavo (docs/api.md, Fees), so the fee a merchant sees in
 * the creation response, the webhook and the statement is the same number.
 */
import { z } from "zod";
import { isCentavos, percentOfRoundHalfUp } from "@/lib/domain/money";
import type { PaymentMethod } from "@/lib/domain/status";

const basisPoints = z.number().int().min(0).max(10_000);
const centavos = z.number().int().min(0);

export const FeePlan = z.object({
  pix: z.object({ percentBp: basisPoints, fixed: centavos }),
  card: z.object({ percentBp: basisPoints, fixed: centavos, perExtraInstallmentBp: basisPoints }),
  boleto: z.object({ percentBp: basisPoints, fixed: centavos }),
  cashOut: z.object({ fixed: centavos }),
});
export type FeePlan = z.infer<typeof FeePlan>;

export const DEFAULT_FEE_PLAN: FeePlan = {
  pix: { percentBp: 99, fixed: 0 },
  card: { percentBp: 399, fixed: 39, perExtraInstallmentBp: 150 },
  boleto: { percentBp: 0, fixed: 349 },
  cashOut: { fixed: 0 },
};

export type TransactionFee = {
  fixedAmount: number;
  percentAmount: number;
  /** fixedAmount + percentAmount, capped at the amount so netAmount never goes negative. */
  estimatedFee: number;
  netAmount: number;
};

export const MAX_INSTALLMENTS = 12;

export function computeTransactionFee(
  plan: FeePlan,
  method: PaymentMethod,
  amount: number,
  installments = 1,
): TransactionFee {
  if (!isCentavos(amount) || amount < 0) throw new RangeError(`amount must be non-negative centavos, got ${amount}`);
  if (!Number.isInteger(installments) || installments < 1 || installments > MAX_INSTALLMENTS) {
    throw new RangeError(`installments must be 1 to ${MAX_INSTALLMENTS}, got ${installments}`);
  }
  if (method !== "credit_card" && installments !== 1) {
    throw new RangeError(`Only credit_card takes installments, got ${installments} for ${method}`);
  }

  let fixedAmount: number;
  let percentBp: number;
  switch (method) {
    case "pix":
      fixedAmount = plan.pix.fixed;
      percentBp = plan.pix.percentBp;
      break;
    case "boleto":
      fixedAmount = plan.boleto.fixed;
      percentBp = plan.boleto.percentBp;
      break;
    case "credit_card":
      fixedAmount = plan.card.fixed;
      // The installment surcharge adds to the rate, then one rounding: 3.99% + 1.5% per extra installment.
      percentBp = plan.card.percentBp + (installments - 1) * plan.card.perExtraInstallmentBp;
      break;
  }
  const percentAmount = percentOfRoundHalfUp(amount, percentBp);
  const estimatedFee = Math.min(amount, fixedAmount + percentAmount);
  return { fixedAmount, percentAmount, estimatedFee, netAmount: amount - estimatedFee };
}

export function computeCashOutFee(plan: FeePlan): number {
  return plan.cashOut.fixed;
}
