/**
 * Card installments as the payer sees them ("1x de R$ 33,34 + 2x de R$ 33,33 sem juros"). The payer
 * pays the amount; the fee plan's installment surcharge is the merchant's cost, not the payer's.
 * Brazilian shops keep each installment at or above a minimum so a small order is not split into
 * centavos.
 *
 * One rule for splitting, wherever installments are priced or shown (the payer's options and
 * confirmation, the receipt, the dashboard): each installment is the total divided by the count,
 * rounded down, and the first carries the centavos left, as card issuers bill it. So the
 * installments always add up to exactly what the card is charged, and the pages say the first one
 * apart when it differs. With interest the Price-table installment is rounded once and the total is
 * count × it, so every installment is equal.
 */
import { formatBRL } from "./money";

/**
 * fees.ts's MAX_INSTALLMENTS, repeated: this module runs in the payer's browser, and importing
 * fees.ts would ship zod (its FeePlan schema) with the checkout page. A unit test keeps them equal.
 */
export const MAX_CARD_INSTALLMENTS = 12;
export const MIN_INSTALLMENT_CENTAVOS = 500;

export type InstallmentOption = {
  count: number;
  /** Each installment but the first: the total divided by the count, rounded down. */
  each: number;
  /** The first installment: `each` plus the centavos left, so first + each × (count − 1) = total. */
  first: number;
  total: number;
};

/** `total` centavos in `count` installments by the one rule: rounded down, the first carrying the rest. */
export function splitInstallments(total: number, count: number): { first: number; each: number } {
  if (!Number.isSafeInteger(total) || total < 1) throw new RangeError(`total must be positive centavos, got ${total}`);
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
  const each = Math.floor(total / count);
  return { first: total - each * (count - 1), each };
}

/**
 * Installments as the card bills them, the first apart when it differs: "1x de R$ 99,68 + 2x de
 * R$ 99,66", or "3x de R$ 53,00" when all are equal (`of`: "de", or "of" in English).
 */
export function installmentsWords(i: { count: number; first: number; each: number }, of = "de"): string {
  return i.first === i.each ? `${i.count}x ${of} ${formatBRL(i.each)}` : `1x ${of} ${formatBRL(i.first)} + ${i.count - 1}x ${of} ${formatBRL(i.each)}`;
}

/** `total` in `count` installments by the one rule, in words: "1x de R$ 99,68 + 2x de R$ 99,66". */
export function installmentsText(total: number, count: number): string {
  return installmentsWords({ count, ...splitInstallments(total, count) });
}

export function installmentOptions(amount: number, max: number = MAX_CARD_INSTALLMENTS): InstallmentOption[] {
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`amount must be positive centavos, got ${amount}`);
  const cap = Math.max(1, Math.min(max, MAX_CARD_INSTALLMENTS, Math.floor(amount / MIN_INSTALLMENT_CENTAVOS)));
  return Array.from({ length: cap }, (_, i) => ({ count: i + 1, ...splitInstallments(amount, i + 1), total: amount }));
}

/**
 * The merchant's installment policy: up to `maxInstallments`, the first `interestFree` of them
 * without interest; beyond them the payer pays `monthlyRateBp` (basis points a month: 199 = 1,99%
 * a.m.) by the Price table (equal installments, compound interest).
 */
export type InstallmentPlan = { maxInstallments: number; interestFree: number; monthlyRateBp: number };

/** Today's behaviour: up to 12, all interest-free. */
export const DEFAULT_INSTALLMENT_PLAN: InstallmentPlan = { maxInstallments: MAX_CARD_INSTALLMENTS, interestFree: MAX_CARD_INSTALLMENTS, monthlyRateBp: 0 };

export type PricedInstallmentOption = InstallmentOption & { interest: boolean; monthlyRateBp: number };

/**
 * Price-table installment, exactly: PMT = PV·i·(1+i)^n / ((1+i)^n − 1) with i = bp/10000, in
 * integers (BigInt), rounded half up to the centavo. No floating point: the same centavos in the
 * payer's browser, the server and the tests. Without a rate it is the amount split by the one rule
 * (rounded down; the first installment carries the rest, see splitInstallments).
 */
export function priceInstallment(amount: number, n: number, monthlyRateBp: number): number {
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`amount must be positive centavos, got ${amount}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  if (!Number.isInteger(monthlyRateBp) || monthlyRateBp < 0) throw new RangeError(`monthlyRateBp must be a non-negative integer, got ${monthlyRateBp}`);
  if (monthlyRateBp === 0) return splitInstallments(amount, n).each;
  const a = BigInt(10_000 + monthlyRateBp) ** BigInt(n);
  const b = 10_000n ** BigInt(n);
  const num = BigInt(amount) * BigInt(monthlyRateBp) * a;
  const den = 10_000n * (a - b);
  // Round half up: floor((2·num + den) / (2·den)).
  return Number((2n * num + den) / (2n * den));
}

/**
 * The options a payer sees under a plan: interest-free ones as installmentOptions (the amount
 * split, the total unchanged), the others at the plan's rate with the total the payer pays
 * (installment × count). The minimum installment still caps the count.
 */
export function pricedInstallmentOptions(amount: number, plan: InstallmentPlan = DEFAULT_INSTALLMENT_PLAN): PricedInstallmentOption[] {
  const max = Math.max(1, Math.min(plan.maxInstallments, MAX_CARD_INSTALLMENTS));
  return installmentOptions(amount, max).map((o) => {
    if (o.count <= Math.max(1, plan.interestFree) || plan.monthlyRateBp === 0) return { ...o, interest: false, monthlyRateBp: 0 };
    const each = priceInstallment(amount, o.count, plan.monthlyRateBp);
    return { count: o.count, each, first: each, total: each * o.count, interest: true, monthlyRateBp: plan.monthlyRateBp };
  });
}

/** Checks a plan a merchant sets (or a charge overrides): null when fine, else what is wrong. */
export function installmentPlanProblem(plan: InstallmentPlan): string | null {
  if (!Number.isInteger(plan.maxInstallments) || plan.maxInstallments < 1 || plan.maxInstallments > MAX_CARD_INSTALLMENTS) {
    return `maxInstallments must be 1 to ${MAX_CARD_INSTALLMENTS}`;
  }
  if (!Number.isInteger(plan.interestFree) || plan.interestFree < 1 || plan.interestFree > plan.maxInstallments) {
    return "interestFree must be 1 to maxInstallments";
  }
  if (!Number.isInteger(plan.monthlyRateBp) || plan.monthlyRateBp < 0 || plan.monthlyRateBp > 1_000) {
    return "monthlyRateBp must be 0 to 1000 (10% a month)";
  }
  return null;
}

/**
 * The option the payer chose, re-computed (the server never trusts the page's figures); null when
 * the plan does not offer `count` for this amount (above its maximum, or an installment under the
 * minimum).
 */
export function chosenInstallmentOption(amount: number, plan: InstallmentPlan, count: number): PricedInstallmentOption | null {
  return pricedInstallmentOptions(amount, plan).find((o) => o.count === count) ?? null;
}

/** A monthly rate as a merchant writes it ("1,99" or "1.99", percent a month) in basis points; null when it is not one. */
export function parseRatePercent(text: string): number | null {
  const m = /^(\d{1,2})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}

/** Basis points as the merchant writes the rate: 199 → "1,99". */
export function ratePercentText(bp: number): string {
  return `${Math.floor(bp / 100)},${String(bp % 100).padStart(2, "0")}`;
}
