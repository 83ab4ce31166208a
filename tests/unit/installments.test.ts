import { describe, expect, it } from "vitest";
import {
  MAX_CARD_INSTALLMENTS,
  chosenInstallmentOption,
  installmentOptions,
  installmentPlanProblem,
  priceInstallment,
  pricedInstallmentOptions,
  parseRatePercent,
  ratePercentText,
} from "@/lib/domain/installments";
import { MAX_INSTALLMENTS } from "@/lib/domain/fees";

describe("installmentOptions", () => {
  it("offers up to 12 installments, each rounded down", () => {
    const opts = installmentOptions(100_000);
    expect(opts).toHaveLength(12);
    expect(opts[0]).toEqual({ count: 1, each: 100_000, total: 100_000 });
    expect(opts[2]).toEqual({ count: 3, each: 33_333, total: 100_000 });
  });

  it("keeps each installment at R$ 5,00 or more", () => {
    expect(installmentOptions(1_500).map((o) => o.count)).toEqual([1, 2, 3]);
    expect(installmentOptions(1_499).map((o) => o.count)).toEqual([1, 2]);
  });

  it("always offers paying at once, even below the minimum", () => {
    expect(installmentOptions(100)).toEqual([{ count: 1, each: 100, total: 100 }]);
  });

  it("uses the same maximum as the fee plan", () => {
    expect(MAX_CARD_INSTALLMENTS).toBe(MAX_INSTALLMENTS);
  });

  it("honours a lower maximum", () => {
    expect(installmentOptions(100_000, 3)).toHaveLength(3);
  });
});

describe("Price table (juros do parcelamento)", () => {
  // Vectors computed independently (Python, exact fractions): PMT = PV·i/(1−(1+i)^−n), rounded half
  // up to the centavo.
  it.each([
    // amount, n, rate bp, installment
    [100_000, 12, 199, 9_450], // R$ 1.000,00 em 12x a 1,99% a.m.: 94,5015… -> R$ 94,50
    [100_000, 2, 100, 50_751], // 1% a.m., 2x: 507,5124… -> 507,51
    [15_900, 3, 299, 5_620], // R$ 159,00 em 3x a 2,99%: 56,2005… -> R$ 56,20
    [1_000, 10, 500, 130], // R$ 10,00, 10x a 5%: 1,2950… -> 1,30
    [250_000, 6, 0, 41_667], // no rate: the amount split, rounded up
  ])("%i centavos in %ix at %i bp a month -> %i each", (amount, n, bp, each) => {
    expect(priceInstallment(amount, n, bp)).toBe(each);
  });

  it("one installment with interest is the amount plus one month (the plans never ask for it: 1x is interest-free)", () => {
    expect(priceInstallment(12_345, 1, 299)).toBe(12_714); // 12345 × 1,0299 = 12714,1…
  });

  it("offers the plan: interest-free up to its limit, then the rate, with the total the payer pays", () => {
    const opts = pricedInstallmentOptions(100_000, { maxInstallments: 12, interestFree: 3, monthlyRateBp: 199 });
    expect(opts).toHaveLength(12);
    expect(opts[2]).toEqual({ count: 3, each: 33_333, total: 100_000, interest: false, monthlyRateBp: 0 });
    expect(opts[3].interest).toBe(true);
    expect(opts[11]).toEqual({ count: 12, each: 9_450, total: 113_400, interest: true, monthlyRateBp: 199 });
  });

  it("keeps the minimum installment and the plan's maximum", () => {
    expect(pricedInstallmentOptions(1_500, { maxInstallments: 12, interestFree: 1, monthlyRateBp: 299 }).map((o) => o.count)).toEqual([1, 2, 3]);
    expect(pricedInstallmentOptions(100_000, { maxInstallments: 4, interestFree: 4, monthlyRateBp: 0 })).toHaveLength(4);
  });

  it("defaults to today's behaviour (12x, no interest)", () => {
    expect(pricedInstallmentOptions(100_000).every((o) => !o.interest && o.total === 100_000)).toBe(true);
  });

  it("refuses plans that make no sense", () => {
    expect(installmentPlanProblem({ maxInstallments: 13, interestFree: 1, monthlyRateBp: 0 })).toMatch(/maxInstallments/);
    expect(installmentPlanProblem({ maxInstallments: 6, interestFree: 7, monthlyRateBp: 0 })).toMatch(/interestFree/);
    expect(installmentPlanProblem({ maxInstallments: 6, interestFree: 2, monthlyRateBp: 1_001 })).toMatch(/monthlyRateBp/);
    expect(installmentPlanProblem({ maxInstallments: 6, interestFree: 2, monthlyRateBp: 199 })).toBeNull();
  });
});

describe("chosenInstallmentOption (the server re-prices the payer's choice)", () => {
  const plan = { maxInstallments: 6, interestFree: 3, monthlyRateBp: 199 };

  it("prices an interest-bearing choice by the Price table", () => {
    // R$ 1.000,00 in 6x at 1,99%: 178,4687… -> 178,47, 1.070,82 in all (Python, exact fractions).
    expect(chosenInstallmentOption(100_000, plan, 6)).toEqual({ count: 6, each: 17_847, total: 107_082, interest: true, monthlyRateBp: 199 });
  });

  it("keeps an interest-free choice at the amount", () => {
    expect(chosenInstallmentOption(100_000, plan, 3)).toMatchObject({ total: 100_000, interest: false });
  });

  it("refuses a count above the plan or under the minimum installment", () => {
    expect(chosenInstallmentOption(100_000, plan, 7)).toBeNull();
    expect(chosenInstallmentOption(1_500, plan, 4)).toBeNull();
    expect(chosenInstallmentOption(1_500, plan, 0)).toBeNull();
  });
});

describe("the monthly rate as the merchant writes it", () => {
  it("reads a percent with a comma or a point, up to two decimals, into basis points", () => {
    expect(parseRatePercent("1,99")).toBe(199);
    expect(parseRatePercent(" 2.5 ")).toBe(250);
    expect(parseRatePercent("0")).toBe(0);
    expect(parseRatePercent("10,00")).toBe(1_000);
  });

  it("is not a rate with three decimals, a sign, three integer digits or words", () => {
    for (const bad of ["1,999", "-1", "100", "abc", "", "1,"]) expect(parseRatePercent(bad), bad).toBeNull();
  });

  it("writes basis points back as the merchant typed them", () => {
    expect(ratePercentText(199)).toBe("1,99");
    expect(ratePercentText(250)).toBe("2,50");
    expect(ratePercentText(0)).toBe("0,00");
    expect(parseRatePercent(ratePercentText(1_000))).toBe(1_000);
  });
});
