import { describe, expect, it } from "vitest";
import {
  barcodeToDigitableLine,
  buildBarcode,
  digitableLineToBarcode,
  formatDigitableLine,
  mod10,
  mod11Barcode,
  parseBarcode,
  validateBarcode,
  validateDigitableLine,
} from "@/lib/domain/boleto/barcode";

const d = (iso: string) => new Date(`${iso}T00:00:00Z`);

const BB_BARCODE = "00191167700000123450000001234567890123456717";
const BB_LINE = "00190.00009 01234.567897 01234.567178 1 16770000012345";
const ITAU_LINE = "34191.09123 34567.880058 71234.570001 3 10000000100000";
const BRADESCO_2018_LINE = "23793381286000782713695000063305975520000370000";

describe("mod10 and mod11Barcode", () => {
  it("computes the field check digits of the Banco do Brasil vector", () => {
    expect(mod10("001900000")).toBe(9);
    expect(mod10("0123456789")).toBe(7);
    expect(mod10("0123456717")).toBe(8);
  });

  it("maps remainders giving 0, 10 or 11 to 1 (the vector's general DV)", () => {
    // sum mod 11 is 0 here, so 11 - 0 = 11 -> 1
    expect(mod11Barcode(BB_BARCODE.slice(0, 4) + BB_BARCODE.slice(5))).toBe(1);
  });

  it("computes other general DVs", () => {
    expect(mod11Barcode("3419" + digitableLineToBarcode(ITAU_LINE).slice(5))).toBe(3);
  });

  it("refuses non-digits", () => {
    expect(() => mod10("12a")).toThrow(RangeError);
    expect(() => mod11Barcode("")).toThrow(RangeError);
  });
});

describe("buildBarcode", () => {
  it("builds the Banco do Brasil vector (due 2026-12-31, R$ 123,45)", () => {
    const bc = buildBarcode({
      bankCode: "001",
      amount: 12345,
      dueDate: d("2026-12-31"),
      freeField: "0000001234567890123456717",
    });
    expect(bc).toBe(BB_BARCODE);
    expect(formatDigitableLine(barcodeToDigitableLine(bc))).toBe(BB_LINE);
  });

  it("builds the Itaú vector with factor 1000 on the reset day", () => {
    const bc = buildBarcode({
      bankCode: "341",
      amount: 100000,
      dueDate: d("2025-02-22"),
      freeField: "1091234567880057123457000",
    });
    expect(formatDigitableLine(barcodeToDigitableLine(bc))).toBe(ITAU_LINE);
  });

  it("uses factor 0000 without a due date", () => {
    const bc = buildBarcode({ bankCode: "001", amount: 500, dueDate: null, freeField: "0".repeat(25) });
    expect(parseBarcode(bc).factor).toBe("0000");
    expect(validateBarcode(bc)).toBe(true);
  });

  it("refuses bad parts", () => {
    const ok = { bankCode: "001", amount: 100, dueDate: d("2026-01-01"), freeField: "0".repeat(25) };
    expect(() => buildBarcode({ ...ok, bankCode: "01" })).toThrow(RangeError);
    expect(() => buildBarcode({ ...ok, freeField: "0".repeat(24) })).toThrow(RangeError);
    expect(() => buildBarcode({ ...ok, amount: 1.5 })).toThrow(RangeError);
    expect(() => buildBarcode({ ...ok, amount: 10_000_000_000 })).toThrow(RangeError);
  });
});

describe("digitable line", () => {
  it.each([BB_LINE, ITAU_LINE, BRADESCO_2018_LINE])("validates and round-trips %s", (line) => {
    expect(validateDigitableLine(line)).toBe(true);
    const bc = digitableLineToBarcode(line);
    expect(validateBarcode(bc)).toBe(true);
    expect(barcodeToDigitableLine(bc)).toBe(line.replace(/[ .]/g, ""));
    expect(formatDigitableLine(barcodeToDigitableLine(bc))).toBe(formatDigitableLine(line.replace(/[ .]/g, "")));
  });

  it("converts the Banco do Brasil line back to its barcode", () => {
    expect(digitableLineToBarcode(BB_LINE)).toBe(BB_BARCODE);
    expect(barcodeToDigitableLine(BB_BARCODE)).toBe("00190000090123456789701234567178116770000012345");
  });

  it("formats 47 digits as printed on the slip", () => {
    expect(formatDigitableLine("00190000090123456789701234567178116770000012345")).toBe(BB_LINE);
    expect(formatDigitableLine(BRADESCO_2018_LINE)).toBe("23793.38128 60007.827136 95000.063305 9 75520000370000");
  });

  it("detects a wrong field check digit in each of the three fields", () => {
    const digits = BB_LINE.replace(/[ .]/g, "");
    for (const pos of [9, 20, 31]) {
      const wrong = digits.slice(0, pos) + ((Number(digits[pos]) + 1) % 10) + digits.slice(pos + 1);
      expect(validateDigitableLine(wrong)).toBe(false);
    }
  });

  it("detects a wrong general check digit or amount", () => {
    expect(validateDigitableLine(BB_LINE.replace(" 1 ", " 2 "))).toBe(false);
    expect(validateDigitableLine(BB_LINE.replace("16770000012345", "16770000012346"))).toBe(false);
    expect(validateDigitableLine(BB_LINE.slice(0, -1))).toBe(false);
    expect(() => digitableLineToBarcode(BB_LINE.replace(" 1 ", " 2 "))).toThrow(RangeError);
  });
});

describe("validateBarcode and parseBarcode", () => {
  it("rejects a changed digit or a wrong length", () => {
    expect(validateBarcode(BB_BARCODE)).toBe(true);
    expect(validateBarcode(BB_BARCODE.replace("0000012345", "0000012346"))).toBe(false);
    expect(validateBarcode(BB_BARCODE.slice(1))).toBe(false);
    expect(validateBarcode(`${BB_BARCODE.slice(0, 43)}x`)).toBe(false);
  });

  it("reads bank, factor and amount", () => {
    expect(parseBarcode(BB_BARCODE)).toEqual({
      bankCode: "001",
      currency: "9",
      generalDv: "1",
      factor: "1677",
      amount: 12345,
      freeField: "0000001234567890123456717",
    });
    expect(parseBarcode(digitableLineToBarcode(BRADESCO_2018_LINE))).toMatchObject({
      bankCode: "237",
      factor: "7552",
      amount: 370000,
    });
  });

  it("round-trips barcode -> line -> barcode for many amounts and dates", () => {
    for (let i = 0; i < 200; i++) {
      const bc = buildBarcode({
        bankCode: String(i % 1000).padStart(3, "0"),
        amount: i * 7919,
        dueDate: new Date(Date.UTC(2025, 0, 1 + i * 3)),
        freeField: String(i * 104729).padStart(25, "0"),
      });
      expect(validateBarcode(bc)).toBe(true);
      const line = barcodeToDigitableLine(bc);
      expect(validateDigitableLine(line)).toBe(true);
      expect(digitableLineToBarcode(formatDigitableLine(line))).toBe(bc);
    }
  });
});
