import { describe, expect, it } from "vitest";
import { MAX_CARD_INSTALLMENTS, installmentOptions } from "@/lib/domain/installments";
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
