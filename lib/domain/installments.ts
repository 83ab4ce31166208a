/**
 * Card installments as the payer sees them ("3x de R$ 33,33 sem juros"). The payer pays the
 * amount; the fee plan's installment surcharge is the merchant's cost, not the payer's. Brazilian
 * shops keep each installment at or above a minimum so a small order is not split into centavos.
 */

/**
 * fees.ts's MAX_INSTALLMENTS, repeated: this module runs in the payer's browser, and importing
 * fees.ts would ship zod (its FeePlan schema) with the checkout page. A unit test keeps them equal.
 */
export const MAX_CARD_INSTALLMENTS = 12;
export const MIN_INSTALLMENT_CENTAVOS = 500;

export type InstallmentOption = {
  count: number;
  /** Each installment, rounded down; the first carries the remainder centavos. */
  each: number;
  total: number;
};

export function installmentOptions(amount: number, max: number = MAX_CARD_INSTALLMENTS): InstallmentOption[] {
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`amount must be positive centavos, got ${amount}`);
  const cap = Math.max(1, Math.min(max, MAX_CARD_INSTALLMENTS, Math.floor(amount / MIN_INSTALLMENT_CENTAVOS)));
  return Array.from({ length: cap }, (_, i) => ({ count: i + 1, each: Math.floor(amount / (i + 1)), total: amount }));
}
