import { describe, expect, it } from "vitest";
import { cvvLength, detectBrand, panLengthOk } from "@/lib/domain/card/brand";

describe("detectBrand", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["4000000000000002", "visa"],
    ["4000000000009995", "visa"],
    ["5555555555554444", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["378282246310005", "amex"],
    ["6011111111111117", "discover"],
    ["3056930009020004", "diners"],
    ["3566002020360505", "jcb"],
    ["5067766783888311", "elo"],
    ["6062825624254001", "hipercard"],
  ])("%s is %s", (pan, brand) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it.each([
    ["4011780000000000", "elo"], // inside Visa's 4
    ["4389350000000000", "elo"],
    ["4576320000000000", "elo"],
    ["5041750000000000", "elo"], // outside Mastercard's 51-55 but a known Elo BIN
    ["5090000000000000", "elo"],
    ["5099990000000000", "elo"],
    ["6277800000000000", "elo"],
    ["6363680000000000", "elo"],
    ["6504050000000000", "elo"], // inside Discover's 65
    ["6550580000000000", "elo"],
    ["6550200000000000", "discover"], // the gap between Elo's 655000-655019 and 655021-655058
    ["6500340000000000", "discover"], // the gap at 650034
    ["4011770000000000", "visa"],
    ["3841000000000000", "hipercard"], // inside Diners' 38
    ["3800000000000000", "diners"],
    ["3600000000000000", "diners"],
    ["3400000000000000", "amex"],
    ["2221000000000000", "mastercard"],
    ["2720990000000000", "mastercard"],
    ["2721000000000000", null],
    ["3528000000000000", "jcb"],
    ["3589000000000000", "jcb"],
    ["6440000000000000", "discover"],
    ["5100000000000000", "mastercard"],
    ["5600000000000000", null],
    ["1234567890123456", null],
  ])("%s is %s at the edge of its range", (pan, brand) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it("ignores spaces and dashes and needs at least a BIN", () => {
    expect(detectBrand("4242 4242 4242 4242")).toBe("visa");
    expect(detectBrand("5067-7667-8388-8311")).toBe("elo");
    expect(detectBrand("42424")).toBeNull();
    expect(detectBrand("abc")).toBeNull();
  });
});

describe("cvvLength and panLengthOk", () => {
  it("wants 4 digits for Amex and 3 for every other brand", () => {
    expect(cvvLength("amex")).toBe(4);
    for (const b of ["visa", "mastercard", "elo", "hipercard", "diners", "discover", "jcb"] as const) {
      expect(cvvLength(b)).toBe(3);
    }
  });

  it("knows each brand's PAN lengths", () => {
    expect(panLengthOk("amex", "378282246310005")).toBe(true);
    expect(panLengthOk("amex", "3782822463100050")).toBe(false);
    expect(panLengthOk("visa", "4222222222222")).toBe(true);
    expect(panLengthOk("mastercard", "555555555555444")).toBe(false);
    expect(panLengthOk("diners", "30569309025904")).toBe(true);
    expect(panLengthOk("elo", "5067 7667 8388 8311")).toBe(true);
  });
});
