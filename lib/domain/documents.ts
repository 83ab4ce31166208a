/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 characters).
 * Check digits are the Receita Federal's mod-11 rule. From July 2026 the CNPJ's first 12
 * characters may be letters (Instrução Normativa RFB 2.229/2024); its 2 check digits stay numeric.
 */

export type DocumentType = "cpf" | "cnpj";

/** Drops the punctuation people type ("111.444.777-35", "12.ABC.345/01DE-35") and uppercases. */
export function normalizeDocument(s: string): string {
  return s.replace(/[.\-/\s]/g, "").toUpperCase();
}

// r = sum mod 11; digit = 0 when r < 2, else 11 - r. Same rule for CPF and CNPJ.
function mod11CheckDigit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] * weights[i];
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

// Sequences such as 000.000.000-00 or 11111111111 satisfy the check digits but are never issued.
function allSameCharacter(s: string): boolean {
  return /^(.)\1*$/.test(s);
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCpf(s: string): boolean {
  const cpf = normalizeDocument(s);
  if (!/^\d{11}$/.test(cpf) || allSameCharacter(cpf)) return false;
  const digits = Array.from(cpf, Number);
  const d1 = mod11CheckDigit(digits.slice(0, 9), CPF_WEIGHTS_1);
  const d2 = mod11CheckDigit(digits.slice(0, 10), CPF_WEIGHTS_2);
  return digits[9] === d1 && digits[10] === d2;
}

const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;

/** Numeric CNPJ, and the alphanumeric CNPJ where each character is worth its ASCII code minus 48 (A = 17). */
export function isValidCnpj(s: string): boolean {
  const cnpj = normalizeDocument(s);
  if (!CNPJ_SHAPE.test(cnpj) || allSameCharacter(cnpj)) return false;
  const values = Array.from(cnpj, (c) => c.charCodeAt(0) - 48);
  const d1 = mod11CheckDigit(values.slice(0, 12), CNPJ_WEIGHTS_1);
  const d2 = mod11CheckDigit(values.slice(0, 13), CNPJ_WEIGHTS_2);
  return values[12] === d1 && values[13] === d2;
}

/** By shape only (11 digits, or 12 alphanumerics + 2 digits); check digits are `isValidDocument`'s job. */
export function detectDocumentType(s: string): DocumentType | null {
  const doc = normalizeDocument(s);
  if (/^\d{11}$/.test(doc)) return "cpf";
  if (CNPJ_SHAPE.test(doc)) return "cnpj";
  return null;
}

/** `type` in any case ("CPF", "Cnpj"), as merchants' clients send it. */
export function isValidDocument(type: string, number: string): boolean {
  switch (type.toLowerCase()) {
    case "cpf":
      return isValidCpf(number);
    case "cnpj":
      return isValidCnpj(number);
    default:
      return false;
  }
}

/** "111.444.777-35" / "11.222.333/0001-81" (alphanumeric CNPJ too) for display; anything else as is. */
export function formatDocument(doc: string): string {
  if (/^\d{11}$/.test(doc)) return `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`;
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc)) {
    return `${doc.slice(0, 2)}.${doc.slice(2, 5)}.${doc.slice(5, 8)}/${doc.slice(8, 12)}-${doc.slice(12)}`;
  }
  return doc;
}
