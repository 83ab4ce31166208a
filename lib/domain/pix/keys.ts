/**
 * PIX keys (chaves) as the DICT registers them (Manual de Padrões para Iniciação do Pix):
 * CPF 11 digits, CNPJ 14, e-mail lowercase up to 77 characters, phone E.164 with "+55",
 * EVP a random lowercase UUID. Merchants type keys with punctuation and in any case, so keys are
 * normalized to the DICT form before they go into a BR Code or a cash-out.
 */
import { isValidCnpj, isValidCpf, normalizeDocument } from "@/lib/domain/documents";

export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export type PixKeyResult =
  | { ok: true; type: PixKeyType; key: string }
  | { ok: false; message: string };

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// The DICT's e-mail pattern (lowercase local part and domain labels of at most 63 characters).
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EMAIL_MAX = 77;
const E164 = /^\+[1-9][0-9]\d{1,14}$/;
// +55, a two-digit area code (DDD, no zeros), then 8 (landline) or 9 (mobile) digits.
const BRAZIL_PHONE = /^\+55[1-9]{2}\d{8,9}$/;

function isPixKeyType(s: string): s is PixKeyType {
  return (PIX_KEY_TYPES as readonly string[]).includes(s);
}

function phoneDigits(s: string): string {
  return s.replace(/[\s().-]/g, "");
}

/**
 * Shape-based guess for a key sent without a type. An 11-digit string is ambiguous (CPF or a phone
 * with area code and no "+55"): it is a CPF when its check digits are valid, otherwise a phone.
 */
export function inferPixKeyType(key: string): PixKeyType | null {
  const k = key.trim();
  if (k === "") return null;
  if (EVP.test(k.toLowerCase())) return "evp";
  if (k.includes("@")) return "email";
  if (k.startsWith("+")) return "phone";
  const doc = normalizeDocument(k);
  if (/^\d{11}$/.test(doc) && isValidCpf(doc)) return "cpf";
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc) && isValidCnpj(doc)) return "cnpj";
  const digits = phoneDigits(k);
  if (/^\d{10,11}$/.test(digits) || /^55\d{10,11}$/.test(digits)) return "phone";
  return null;
}

function normalizePhone(raw: string): string | null {
  const digits = phoneDigits(raw.trim());
  let e164: string;
  if (digits.startsWith("+")) e164 = digits;
  else if (/^\d{10,11}$/.test(digits)) e164 = `+55${digits}`;
  else if (/^55\d{10,11}$/.test(digits)) e164 = `+${digits}`;
  else return null;
  return E164.test(e164) && BRAZIL_PHONE.test(e164) ? e164 : null;
}

/** `type` in any case ("CPF", "Email"); inferred when absent. Returns the key in DICT form. */
export function validatePixKey(key: string, type?: string | null): PixKeyResult {
  if (typeof key !== "string" || key.trim() === "") return { ok: false, message: "The PIX key is empty." };
  let keyType: PixKeyType;
  if (type === undefined || type === null || type === "") {
    const inferred = inferPixKeyType(key);
    if (inferred === null) {
      return { ok: false, message: "The PIX key is not a CPF, CNPJ, e-mail, phone or random (EVP) key." };
    }
    keyType = inferred;
  } else {
    const lowered = type.trim().toLowerCase();
    if (!isPixKeyType(lowered)) {
      return { ok: false, message: `Unknown PIX key type "${type}": use cpf, cnpj, email, phone or evp.` };
    }
    keyType = lowered;
  }

  switch (keyType) {
    case "cpf": {
      const cpf = normalizeDocument(key);
      return /^\d{11}$/.test(cpf) && isValidCpf(cpf)
        ? { ok: true, type: "cpf", key: cpf }
        : { ok: false, message: "The PIX key is not a valid CPF (11 digits with valid check digits)." };
    }
    case "cnpj": {
      const cnpj = normalizeDocument(key);
      return isValidCnpj(cnpj)
        ? { ok: true, type: "cnpj", key: cnpj }
        : { ok: false, message: "The PIX key is not a valid CNPJ (14 characters with valid check digits)." };
    }
    case "email": {
      const email = key.trim().toLowerCase();
      if (email.length > EMAIL_MAX) {
        return { ok: false, message: `An e-mail PIX key has at most ${EMAIL_MAX} characters.` };
      }
      return EMAIL.test(email)
        ? { ok: true, type: "email", key: email }
        : { ok: false, message: "The PIX key is not a valid e-mail address." };
    }
    case "phone": {
      const phone = normalizePhone(key);
      return phone !== null
        ? { ok: true, type: "phone", key: phone }
        : { ok: false, message: "The PIX key is not a valid Brazilian phone number (+55, area code, number)." };
    }
    case "evp": {
      const evp = key.trim().toLowerCase();
      return EVP.test(evp)
        ? { ok: true, type: "evp", key: evp }
        : { ok: false, message: "The PIX key is not a valid random key (EVP, a UUID)." };
    }
  }
}
