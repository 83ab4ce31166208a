import { describe, expect, it } from "vitest";
import { formatBRL, isCentavos, percentOfRoundHalfUp } from "@/lib/domain/money";

describe("formatBRL", () => {
  it.each([
    [0, "R$ 0,00"],
    [1, "R$ 0,01"],
    [99, "R$ 0,99"],
    [100, "R$ 1,00"],
    [123456, "R$ 1.234,56"],
    [100000000, "R$ 1.000.000,00"],
    [-100, "-R$ 1,00"],
    [-123456, "-R$ 1.234,56"],
  ])("formats %i centavos as %s", (cents, text) => {
    expect(formatBRL(cents)).toBe(text);
  });

  it("uses a plain ASCII space after R$", () => {
    expect(formatBRL(500).charCodeAt(2)).toBe(0x20);
  });

  it("refuses fractional centavos", () => {
    expect(() => formatBRL(1.5)).toThrow(RangeError);
  });
});

describe("percentOfRoundHalfUp", () => {
  it.each([
    // amount, basis points, exact value, rounded
    [1000, 99, 10], // 9.9
    [10000, 99, 99], // exact
    [50, 99, 0], // 0.495 is below half
    [51, 99, 1], // 0.5049
    [50, 100, 1], // 0.5 exactly: half goes up
    [150, 100, 2], // 1.5
    [250, 100, 3], // 2.5: half up, not half to even
    [12345, 399, 493], // 492.5655
    [1, 99, 0],
    [0, 399, 0],
    [100000000, 10000, 100000000],
  ])("%i at %i bp is %i", (amount, bp, expected) => {
    expect(percentOfRoundHalfUp(amount, bp)).toBe(expected);
  });

  it("stays exact where floating point would not (amount near 2^53)", () => {
    // 9007199254740991 * 5000 / 10000 = 4503599627370495.5 -> rounds up
    expect(percentOfRoundHalfUp(Number.MAX_SAFE_INTEGER, 5000)).toBe(4503599627370496);
  });

  it("refuses negative or fractional inputs", () => {
    expect(() => percentOfRoundHalfUp(-1, 99)).toThrow(RangeError);
    expect(() => percentOfRoundHalfUp(10.5, 99)).toThrow(RangeError);
    expect(() => percentOfRoundHalfUp(100, 1.5)).toThrow(RangeError);
  });
});

describe("isCentavos", () => {
  it("accepts safe integers only", () => {
    expect(isCentavos(0)).toBe(true);
    expect(isCentavos(-5)).toBe(true);
    expect(isCentavos(12345)).toBe(true);
    expect(isCentavos(1.5)).toBe(false);
    expect(isCentavos(Number.NaN)).toBe(false);
    expect(isCentavos(2 ** 53)).toBe(false);
    expect(isCentavos("100")).toBe(false);
  });
});
