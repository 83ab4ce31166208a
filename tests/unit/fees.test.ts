import { describe, expect, it } from "vitest";
import { computeCashOutFee, computeTransactionFee, DEFAULT_FEE_PLAN, FeePlan } from "@/lib/domain/fees";

const plan = DEFAULT_FEE_PLAN;

describe("DEFAULT_FEE_PLAN", () => {
  it("is the default plan of docs/api.md and a valid FeePlan", () => {
    expect(plan).toEqual({
      pix: { percentBp: 99, fixed: 0 },
      card: { percentBp: 399, fixed: 39, perExtraInstallmentBp: 150 },
      boleto: { percentBp: 0, fixed: 349 },
      cashOut: { fixed: 0 },
    });
    expect(FeePlan.safeParse(plan).success).toBe(true);
    expect(computeCashOutFee(plan)).toBe(0);
  });

  it("rejects a plan with fractional basis points", () => {
    expect(FeePlan.safeParse({ ...plan, pix: { percentBp: 99.5, fixed: 0 } }).success).toBe(false);
  });
});

describe("computeTransactionFee", () => {
  it.each([
    // amount, fee: PIX 0.99%, half up
    [1000, 10], // 9.9
    [50, 0], // 0.495
    [51, 1], // 0.5049
    [10000, 99],
    [1, 0],
  ])("PIX on %i centavos costs %i", (amount, fee) => {
    expect(computeTransactionFee(plan, "pix", amount)).toEqual({
      fixedAmount: 0,
      percentAmount: fee,
      estimatedFee: fee,
      netAmount: amount - fee,
    });
  });

  it("card in one installment: 3.99% + 39 centavos", () => {
    expect(computeTransactionFee(plan, "credit_card", 10000)).toEqual({
      fixedAmount: 39,
      percentAmount: 399,
      estimatedFee: 438,
      netAmount: 9562,
    });
    // 12345 * 3.99% = 492.5655 -> 493
    expect(computeTransactionFee(plan, "credit_card", 12345)).toEqual({
      fixedAmount: 39,
      percentAmount: 493,
      estimatedFee: 532,
      netAmount: 11813,
    });
  });

  it("card adds 1.5% per installment above 1, rounded once on the total rate", () => {
    // 3x: 3.99% + 3% = 6.99%
    expect(computeTransactionFee(plan, "credit_card", 10000, 3).percentAmount).toBe(699);
    // 12x: 3.99% + 16.5% = 20.49%
    expect(computeTransactionFee(plan, "credit_card", 10000, 12).estimatedFee).toBe(2049 + 39);
    // 2x on 30: 5.49% = 1.647 -> 2; rounding 3.99% (1.197 -> 1) and 1.5% (0.45 -> 0) apart would give 1
    expect(computeTransactionFee(plan, "credit_card", 30, 2).percentAmount).toBe(2);
  });

  it("boleto is a fixed R$ 3,49", () => {
    expect(computeTransactionFee(plan, "boleto", 10000)).toEqual({
      fixedAmount: 349,
      percentAmount: 0,
      estimatedFee: 349,
      netAmount: 9651,
    });
  });

  it("never charges more than the amount", () => {
    const fee = computeTransactionFee(plan, "boleto", 100);
    expect(fee.estimatedFee).toBe(100);
    expect(fee.netAmount).toBe(0);
    expect(computeTransactionFee(plan, "credit_card", 20).estimatedFee).toBe(20);
  });

  it("refuses bad installments and fractional amounts", () => {
    expect(() => computeTransactionFee(plan, "credit_card", 1000, 0)).toThrow(RangeError);
    expect(() => computeTransactionFee(plan, "credit_card", 1000, 13)).toThrow(RangeError);
    expect(() => computeTransactionFee(plan, "pix", 1000, 2)).toThrow(RangeError);
    expect(() => computeTransactionFee(plan, "pix", 10.5)).toThrow(RangeError);
  });

  it("uses the account's own plan", () => {
    const custom: FeePlan = { ...plan, pix: { percentBp: 50, fixed: 10 } };
    expect(computeTransactionFee(custom, "pix", 1000)).toEqual({
      fixedAmount: 10,
      percentAmount: 5,
      estimatedFee: 15,
      netAmount: 985,
    });
  });
});
