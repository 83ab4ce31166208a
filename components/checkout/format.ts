/** Display masks for Brazilian numbers (pure; used on the server and in the payer's browser). */
import { installmentsWords } from "@/lib/domain/installments";

/**
 * An installment option as the card form lists it (lib/domain/installments.ts): `first` is the first
 * installment, which carries the centavos the split leaves; first + each × (count − 1) = total.
 */
export type InstallmentLabel = { count: number; each: number; first: number; total: number; interest: boolean };

/** An option's installments in words (`of` "de", or "of" in English): lib/domain/installments.ts's. */
export const installmentSplit = (o: InstallmentLabel, of: string): string => installmentsWords(o, of);

/** "R$ 1.134,00" kept on one line in running text: the space after "R$" made non-breaking. */
export const unbroken = (text: string): string => text.replace(/R\$ /g, "R$\u00a0");

/** "11222333000181" -> "11.222.333/0001-81" (alphanumeric CNPJs too). */
export function formatCnpj(cnpj: string): string {
  const c = cnpj.replace(/[^0-9A-Za-z]/g, "").toUpperCase();
  if (c.length !== 14) return cnpj;
  return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
}

/**
 * Masks a CPF or CNPJ as it is typed: up to 11 digits as a CPF (000.000.000-00), beyond that as a
 * CNPJ (00.000.000/0000-00). Letters are kept for the alphanumeric CNPJ.
 */
export function maskDocument(input: string): string {
  const c = input.replace(/[^0-9A-Za-z]/g, "").toUpperCase().slice(0, 14);
  const hasLetters = /[A-Z]/.test(c);
  if (c.length <= 11 && !hasLetters) {
    return c.replace(/^(\d{3})(\d)/, "$1.$2").replace(/^(\d{3})\.(\d{3})(\d)/, "$1.$2.$3").replace(/\.(\d{3})(\d{1,2})$/, ".$1-$2");
  }
  let out = c.slice(0, 2);
  if (c.length > 2) out += `.${c.slice(2, 5)}`;
  if (c.length > 5) out += `.${c.slice(5, 8)}`;
  if (c.length > 8) out += `/${c.slice(8, 12)}`;
  if (c.length > 12) out += `-${c.slice(12)}`;
  return out;
}

/** Card number in groups as embossed: 4-4-4-4, Amex 4-6-5. */
export function formatCardNumber(digits: string, brand: string | null): string {
  const d = digits.replace(/\D/g, "").slice(0, 19);
  if (brand === "amex") return [d.slice(0, 4), d.slice(4, 10), d.slice(10, 15)].filter(Boolean).join(" ");
  return d.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1228" or "12/28" typed -> "12/28". */
export function formatExpiry(input: string): string {
  const d = input.replace(/\D/g, "").slice(0, 4);
  if (d.length <= 2) return d.length === 2 && !input.includes("/") ? d : d;
  return `${d.slice(0, 2)}/${d.slice(2)}`;
}

/** "5511987654321" -> "(11) 98765-4321". */
export function formatPhoneBR(digits: string): string {
  const d = digits.replace(/^55/, "");
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return digits;
}
