import { validatePixKey, type PixKeyResult } from "@/lib/domain/pix/keys";

/**
 * A key typed with a document's punctuation is that document: "123.456.789-00" is a CPF (with wrong
 * check digits), not the phone +55 12 34567-8900 its digits would also spell.
 */
export function punctuatedType(key: string): string | undefined {
  const k = key.trim();
  if (/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(k)) return "cpf";
  if (/^[0-9A-Za-z]{2}\.[0-9A-Za-z]{3}\.[0-9A-Za-z]{3}\/[0-9A-Za-z]{4}-\d{2}$/.test(k)) return "cnpj";
  return undefined;
}

/** The key as typed in a dashboard form: the chosen type, else the punctuation's, else inferred. */
export function checkPixKeyInput(key: string, chosenType: string): PixKeyResult | null {
  if (!key.trim()) return null;
  return validatePixKey(key, chosenType || punctuatedType(key));
}
