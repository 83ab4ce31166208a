import { describe, expect, it } from "vitest";
import { luhnValid } from "@/lib/domain/card/luhn";

describe("luhnValid", () => {
  it.each([
    "4242424242424242",
    "4000000000000002",
    "4000000000009995",
    "5555555555554444",
    "2223003122003222",
    "378282246310005",
    "6011111111111117",
    "3056930009020004",
    "3566002020360505",
    "5067766783888311",
    "6062825624254001",
  ])("accepts the vector %s", (pan) => {
    expect(luhnValid(pan)).toBe(true);
  });

  it("rejects the failing vector and any single changed digit", () => {
    expect(luhnValid("4242424242424241")).toBe(false);
    const pan = "4242424242424242";
    for (let i = 0; i < pan.length; i++) {
      const changed = pan.slice(0, i) + ((Number(pan[i]) + 1) % 10) + pan.slice(i + 1);
      expect(luhnValid(changed), changed).toBe(false);
    }
  });

  it("rejects non-digits and empty input", () => {
    expect(luhnValid("")).toBe(false);
    expect(luhnValid("4242 4242 4242 4242")).toBe(false);
    expect(luhnValid("42424242424242a2")).toBe(false);
  });
});
