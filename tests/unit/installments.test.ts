import { describe, expect, it } from "vitest";
import {
  MAX_CARD_INSTALLMENTS,
  chosenInstallmentOption,
  installmentOptions,
  installmentPlanProblem,
  installmentsText,
  priceInstallment,
  pricedInstallmentOptions,
  splitInstallments,
  parseRatePercent,
  ratePercentText,
} from "@/lib/domain/installments";
import { MAX_INSTALLMENTS } from "@/lib/domain/fees";

describe("installmentOptions", () => {
  it("offers up to 12 installments, each rounded down, the first carrying the remainder", () => {
    const opts = installmentOptions(100_000);
    expect(opts).toHaveLength(12);
    expect(opts[0]).toEqual({ count: 1, each: 100_000, first: 100_000, total: 100_000 });
    expect(opts[2]).toEqual({ count: 3, each: 33_333, first: 33_334, total: 100_000 });
  });

  it("R$ 299,00 in 3x is R$ 99,68 + 2 × R$ 99,66, in 12x R$ 24,99 + 11 × R$ 24,91: the installments add up to the total", () => {
    const opts = installmentOptions(29_900);
    expect(opts[2]).toEqual({ count: 3, each: 9_966, first: 9_968, total: 29_900 });
    expect(opts[11]).toEqual({ count: 12, each: 2_491, first: 2_499, total: 29_900 });
  });

  it("the first installment plus the others is exactly the total, for every amount and count", () => {
    for (let amount = 100; amount <= 20_000; amount += 7) {
      for (const o of installmentOptions(amount)) {
        expect(o.first + o.each * (o.count - 1), `${amount} in ${o.count}x`).toBe(o.total);
        expect(o.first - o.each).toBeGreaterThanOrEqual(0);
        expect(o.first - o.each).toBeLessThan(o.count);
      }
    }
  });

  it("keeps each installment at R$ 5,00 or more", () => {
    expect(installmentOptions(1_500).map((o) => o.count)).toEqual([1, 2, 3]);
    expect(installmentOptions(1_499).map((o) => o.count)).toEqual([1, 2]);
  });

  it("always offers paying at once, even below the minimum", () => {
    expect(installmentOptions(100)).toEqual([{ count: 1, each: 100, first: 100, total: 100 }]);
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
    [250_000, 6, 0, 41_666], // no rate: the amount split, rounded down (the first installment carries the 4 centavos left)
  ])("%i centavos in %ix at %i bp a month -> %i each", (amount, n, bp, each) => {
    expect(priceInstallment(amount, n, bp)).toBe(each);
  });

  it("without a rate, prices each installment as the interest-free options do (one rule)", () => {
    for (const amount of [29_900, 100_000, 250_000, 1_501, 9_999]) {
      for (const o of installmentOptions(amount)) expect(priceInstallment(amount, o.count, 0), `${amount} in ${o.count}x`).toBe(o.each);
    }
  });

  it("one installment with interest is the amount plus one month (the plans never ask for it: 1x is interest-free)", () => {
    expect(priceInstallment(12_345, 1, 299)).toBe(12_714); // 12345 × 1,0299 = 12714,1…
  });

  it("offers the plan: interest-free up to its limit, then the rate, with the total the payer pays", () => {
    const opts = pricedInstallmentOptions(100_000, { maxInstallments: 12, interestFree: 3, monthlyRateBp: 199 });
    expect(opts).toHaveLength(12);
    expect(opts[2]).toEqual({ count: 3, each: 33_333, first: 33_334, total: 100_000, interest: false, monthlyRateBp: 0 });
    expect(opts[3].interest).toBe(true);
    // With interest every installment is the Price-table one and the total is exactly count × it.
    expect(opts[11]).toEqual({ count: 12, each: 9_450, first: 9_450, total: 113_400, interest: true, monthlyRateBp: 199 });
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

describe("a charge's installments, as the payer's pages, the receipt and the dashboard show them", () => {
  it("splits what the card was charged by the same rule as the options", () => {
    expect(splitInstallments(29_900, 3)).toEqual({ first: 9_968, each: 9_966 });
    expect(splitInstallments(29_900, 1)).toEqual({ first: 29_900, each: 29_900 });
    // 6x at 1,99% of R$ 1.000,00: the card was charged 6 × 178,47 = 1.070,82, all equal.
    expect(splitInstallments(107_082, 6)).toEqual({ first: 17_847, each: 17_847 });
    for (const amount of [29_900, 100_000, 1_501]) {
      for (const o of installmentOptions(amount)) expect(splitInstallments(amount, o.count)).toEqual({ first: o.first, each: o.each });
    }
  });

  it("says each installment exactly, in Portuguese: the first apart when it differs", () => {
    expect(installmentsText(29_900, 3)).toBe("1x de R$ 99,68 + 2x de R$ 99,66");
    expect(installmentsText(29_900, 12)).toBe("1x de R$ 24,99 + 11x de R$ 24,91");
    expect(installmentsText(29_901, 2)).toBe("1x de R$ 149,51 + 1x de R$ 149,50");
    expect(installmentsText(15_900, 3)).toBe("3x de R$ 53,00");
    expect(installmentsText(107_082, 6)).toBe("6x de R$ 178,47");
  });

  it("refuses a count that is not a positive integer", () => {
    expect(() => splitInstallments(29_900, 0)).toThrow(RangeError);
    expect(() => splitInstallments(29_900, 1.5)).toThrow(RangeError);
  });
});

describe("chosenInstallmentOption (the server re-prices the payer's choice)", () => {
  const plan = { maxInstallments: 6, interestFree: 3, monthlyRateBp: 199 };

  it("prices an interest-bearing choice by the Price table", () => {
    // R$ 1.000,00 in 6x at 1,99%: 178,4687… -> 178,47, 1.070,82 in all (Python, exact fractions).
    expect(chosenInstallmentOption(100_000, plan, 6)).toEqual({ count: 6, each: 17_847, first: 17_847, total: 107_082, interest: true, monthlyRateBp: 199 });
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
