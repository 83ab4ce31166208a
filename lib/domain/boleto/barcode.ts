/**
 * FEBRABAN bank-slip (boleto de cobrança) barcode and digitable line.
 *
 * Barcode, 44 digits: bank(3) currency "9"(1) general DV(1) due-date factor(4) amount(10) free field(25).
 * Line, 47 digits: field 1 = bank, currency, free field 1-5, DV; field 2 = free field 6-15, DV;
 * field 3 = free field 16-25, DV; field 4 = general DV; field 5 = factor + amount.
 */
import { dueDateFactor, NO_DUE_DATE_FACTOR } from "@/lib/domain/boleto/factor";

const CURRENCY_BRL = "9";
const AMOUNT_MAX = 9_999_999_999;

function assertDigits(s: string, what: string, length?: number): void {
  const ok = /^\d+$/.test(s) && (length === undefined || s.length === length);
  if (!ok) throw new RangeError(`${what} must be ${length ?? "some"} digits, got "${s}"`);
}

/** Mod 10: weights 2,1,2,1... from the right; products above 9 count as the sum of their digits. */
export function mod10(digits: string): number {
  assertDigits(digits, "mod10 input");
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? p - 9 : p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** General DV of the barcode: mod 11, weights 2..9 from the right; results 0, 10 and 11 become 1. */
export function mod11Barcode(digits: string): number {
  assertDigits(digits, "mod11 input");
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

export type BarcodeInput = {
  /** 3-digit bank code, e.g. "001" Banco do Brasil. */
  bankCode: string;
  /** Centavos. */
  amount: number;
  /** UTC calendar date; null for a boleto without due date (factor 0000). */
  dueDate: Date | null;
  /** 25 digits laid out by the issuing bank's own convention (agreement, our number, ...). */
  freeField: string;
};

export function buildBarcode(input: BarcodeInput): string {
  assertDigits(input.bankCode, "bankCode", 3);
  assertDigits(input.freeField, "freeField", 25);
  if (!Number.isSafeInteger(input.amount) || input.amount < 0 || input.amount > AMOUNT_MAX) {
    throw new RangeError(`Boleto amount must be 0 to ${AMOUNT_MAX} centavos, got ${input.amount}`);
  }
  const factor = input.dueDate === null ? NO_DUE_DATE_FACTOR : dueDateFactor(input.dueDate);
  const amount = input.amount.toString().padStart(10, "0");
  const withoutDv = input.bankCode + CURRENCY_BRL + factor + amount + input.freeField;
  const dv = mod11Barcode(withoutDv);
  return withoutDv.slice(0, 4) + dv + withoutDv.slice(4);
}

export function validateBarcode(bc: string): boolean {
  if (!/^\d{44}$/.test(bc)) return false;
  return Number(bc[4]) === mod11Barcode(bc.slice(0, 4) + bc.slice(5));
}

export function barcodeToDigitableLine(barcode: string): string {
  if (!validateBarcode(barcode)) throw new RangeError(`Not a valid 44-digit boleto barcode: "${barcode}"`);
  const f1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const f2 = barcode.slice(24, 34);
  const f3 = barcode.slice(34, 44);
  return f1 + mod10(f1) + f2 + mod10(f2) + f3 + mod10(f3) + barcode[4] + barcode.slice(5, 19);
}

/** "00190.00009 01234.567897 01234.567178 1 16770000012345", the layout printed on the slip. */
export function formatDigitableLine(line47: string): string {
  const line = line47.replace(/[\s.]/g, "");
  assertDigits(line, "Digitable line", 47);
  return (
    `${line.slice(0, 5)}.${line.slice(5, 10)} ` +
    `${line.slice(10, 15)}.${line.slice(15, 21)} ` +
    `${line.slice(21, 26)}.${line.slice(26, 32)} ` +
    `${line[32]} ${line.slice(33)}`
  );
}

function lineDigits(line: string): string {
  return line.replace(/[\s.]/g, "");
}

/** Accepts the line with or without its dots and spaces. */
export function validateDigitableLine(line: string): boolean {
  const d = lineDigits(line);
  if (!/^\d{47}$/.test(d)) return false;
  const fieldsOk =
    mod10(d.slice(0, 9)) === Number(d[9]) &&
    mod10(d.slice(10, 20)) === Number(d[20]) &&
    mod10(d.slice(21, 31)) === Number(d[31]);
  return fieldsOk && validateBarcode(rearrange(d));
}

function rearrange(d: string): string {
  return d.slice(0, 4) + d[32] + d.slice(33, 47) + d.slice(4, 9) + d.slice(10, 20) + d.slice(21, 31);
}

export function digitableLineToBarcode(line: string): string {
  if (!validateDigitableLine(line)) throw new RangeError(`Not a valid 47-digit digitable line: "${line}"`);
  return rearrange(lineDigits(line));
}

export type ParsedBarcode = {
  bankCode: string;
  currency: string;
  generalDv: string;
  /** 4 digits; "0000" when the boleto has no due date. Read it with `dueDateFromFactor`. */
  factor: string;
  /** Centavos. */
  amount: number;
  freeField: string;
};

export function parseBarcode(bc: string): ParsedBarcode {
  if (!validateBarcode(bc)) throw new RangeError(`Not a valid 44-digit boleto barcode: "${bc}"`);
  return {
    bankCode: bc.slice(0, 3),
    currency: bc[3],
    generalDv: bc[4],
    factor: bc.slice(5, 9),
    amount: Number(bc.slice(9, 19)),
    freeField: bc.slice(19, 44),
  };
}
