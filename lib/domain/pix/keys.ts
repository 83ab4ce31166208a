/**
 * PIX keys (chaves) as the DICT registers them (Manual de Padrões para Iniciação do Pix):
 * CPF 11 digits, CNPJ 14, e-mail lowercase up to 77 characters, phone E.164 with "+55" (a mobile
 * number: the DICT registers only those), EVP a random lowercase UUID. Merchants type keys with
 * punctuation and in any case, so keys are normalised to the DICT form before they go into a
 * BR Code or a cash-out.
 *
 * `parsePixKey` is the one parser for every way a key comes in (sign-up, `account:create`, the
 * dashboard settings, cash-outs by API and dashboard, the BR Code builder): the same text gives the
 * same key or the same refusal everywhere. The rule that matters most for money: a value shaped
 * like a CPF or CNPJ (punctuated like one, or 11 / 14 bare digits) is that document, and when its
 * check digits are wrong it is refused, never read as a phone number that happens to have as many
 * digits ("111.444.777-30" is a mistyped CPF, not +55 11 14447-7730). A phone key is written with
 * "+55", or sent with the type "phone".
 */
import { isValidCnpj, isValidCpf, normalizeDocument } from "@/lib/domain/documents";

export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** Why a key was refused, for callers that word the refusal in their own language. */
export type PixKeyProblem =
  | "empty"
  | "unknown_type"
  | "not_a_key"
  | "invalid_cpf"
  | "invalid_cnpj"
  | "invalid_email"
  | "email_too_long"
  | "invalid_phone"
  | "document_as_phone"
  | "ambiguous_digits"
  | "invalid_evp";

export type PixKeyResult =
  | { ok: true; type: PixKeyType; key: string }
  | {
      ok: false;
      problem: PixKeyProblem;
      message: string;
      /**
       * For a CPF or CNPJ that fails its check: what the key looks like instead (another kind of key
       * sent with that type, digits that may be a phone, or anything else), so each language can say it.
       */
      looksLike?: LooksLike;
    };

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// The DICT's e-mail pattern (lowercase local part and domain labels of at most 63 characters).
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EMAIL_MAX = 77;
// +55, a two-digit area code (DDD, no zeros), then a mobile number: 9 digits starting with 9.
// Landlines (8 digits) cannot be PIX keys: the DICT registers mobile numbers only.
const BRAZIL_MOBILE = /^\+55[1-9]{2}9\d{8}$/;
// How people write the documents: every separator optional, so "111.444.77730" and "11144477735"
// are CPF-shaped too. CNPJs may have letters in their first 12 characters (from July 2026).
const CPF_SHAPE = /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/;
const CNPJ_SHAPE = /^[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}\/?[0-9A-Za-z]{4}-?\d{2}$/;
// Separators people put in phone numbers: spaces, parentheses, hyphens, dots.
const PHONE_SEPARATORS = /[\s().-]/g;
// A phone written as people write one, without "+": perhaps the country code 55, the area code (perhaps
// in parentheses), then the number in groups of 4 or 5 and 4 ("(11) 98765-4321", "11 9 8765-4321",
// "55 11 98765-4321", "5511987654321"). Other groupings of 10 or 11 digits ("119 444 777 56",
// "119.444.777.56") may be a CPF written loosely: such a key is never guessed to be a phone.
const PHONE_WRITTEN = /^(?:55[\s.-]?)?(?:\(\d{2}\)|\d{2})[\s.-]?(?:9[\s.-]?)?\d{4}[\s.-]?\d{4}$/;

const PHONE_HOWTO = "A phone key is written with the country code, as +55 11 98765-4321 (or sent with the type phone).";
const MESSAGES: Record<PixKeyProblem, string> = {
  empty: "The PIX key is empty.",
  unknown_type: "Unknown PIX key type: use cpf, cnpj, email, phone or evp.",
  not_a_key: `The PIX key is not a CPF, CNPJ, e-mail, phone or random (EVP) key. ${PHONE_HOWTO}`,
  invalid_cpf: `The PIX key is not a valid CPF (11 digits whose check digits hold). ${PHONE_HOWTO}`,
  invalid_cnpj: `The PIX key is not a valid CNPJ (14 characters whose check digits hold). ${PHONE_HOWTO}`,
  invalid_email: "The PIX key is not a valid e-mail address.",
  email_too_long: `An e-mail PIX key has at most ${EMAIL_MAX} characters.`,
  invalid_phone:
    "The PIX key is not a Brazilian mobile number: +55, a two-digit area code, then 9 digits starting with 9 (+55 11 98765-4321). Landlines cannot be PIX keys.",
  document_as_phone: `The PIX key is written as a CPF or CNPJ, not as a phone number. ${PHONE_HOWTO}`,
  ambiguous_digits:
    "The PIX key's digits are written neither as a CPF (123.456.789-09) nor as a phone number (+55 11 98765-4321): write it in one of those forms, or send it with its type (pixKeyType).",
  invalid_evp: "The PIX key is not a valid random key (EVP, a UUID).",
};

type LooksLike = "email" | "evp" | "digits" | "other";
const fail = (problem: PixKeyProblem, message = MESSAGES[problem], looksLike?: LooksLike): PixKeyResult =>
  looksLike ? { ok: false, problem, message, looksLike } : { ok: false, problem, message };

const SHAPE_NAME: Partial<Record<PixKeyType, string>> = { email: "an e-mail address", evp: "a random key (EVP)" };
const DOCUMENT_NAME = { cpf: "CPF (11 digits whose check digits hold)", cnpj: "CNPJ (14 characters whose check digits hold)" } as const;

/**
 * A document key (the type sent, or its shape) whose check fails, said for what the key is: another
 * kind of key sent with the wrong type is named ("looks like an e-mail address, but pixKeyType is
 * cpf"); the phone hint is for digits only, which may be a phone meant as one; anything else is
 * simply not a valid document.
 */
function invalidDocument(problem: "invalid_cpf" | "invalid_cnpj", k: string, typeSent: boolean): PixKeyResult {
  const doc = problem === "invalid_cpf" ? "cpf" : "cnpj";
  const shape = typeByShape(k);
  const looksLike = typeSent && shape !== null && shape !== "ambiguous" ? SHAPE_NAME[shape] : undefined;
  if (looksLike) {
    const message = `The PIX key looks like ${looksLike}, but pixKeyType is ${doc}: send pixKeyType ${shape} (or leave it out), or a ${doc.toUpperCase()} as the key.`;
    return fail(problem, message, shape as "email" | "evp");
  }
  if (/^[\d\s().\/+-]+$/.test(k)) return fail(problem, MESSAGES[problem], "digits");
  return fail(problem, `The PIX key is not a valid ${DOCUMENT_NAME[doc]}.`, "other");
}

function isPixKeyType(s: string): s is PixKeyType {
  return (PIX_KEY_TYPES as readonly string[]).includes(s);
}

function isDocumentShaped(k: string): boolean {
  return CPF_SHAPE.test(k) || CNPJ_SHAPE.test(k);
}

/**
 * The type a key's shape says, before any check: the order is the rule. Documents come before phones,
 * so 11 bare digits are a CPF (valid or not); "+", or a number written the way phones are written
 * (PHONE_WRITTEN), makes a phone. The digits of a phone written any other way are refused as
 * ambiguous, since they may be a CPF: a mistyped CPF must never reach the phone its digits spell.
 */
function typeByShape(k: string): PixKeyType | "ambiguous" | null {
  if (EVP.test(k.toLowerCase())) return "evp";
  if (k.includes("@")) return "email";
  if (k.startsWith("+")) return "phone";
  if (CPF_SHAPE.test(k)) return "cpf";
  if (CNPJ_SHAPE.test(k)) return "cnpj";
  if (PHONE_WRITTEN.test(k)) return "phone";
  // Area code and number (10 or 11 digits), perhaps after the country code 55, grouped otherwise.
  if (/^(55)?\d{10,11}$/.test(k.replace(PHONE_SEPARATORS, ""))) return "ambiguous";
  return null;
}

/** "+55 (11) 98765-4321", "(11) 98765-4321", "5511987654321" -> "+5511987654321" when it is a mobile. */
function parsePhone(k: string): PixKeyResult {
  // Sent as a phone but punctuated as a document: as likely a CPF pasted into the wrong field.
  if (isDocumentShaped(k) && /[./-]/.test(k)) return fail("document_as_phone");
  const digits = k.replace(PHONE_SEPARATORS, "");
  let e164: string;
  if (/^\+\d+$/.test(digits)) e164 = digits;
  else if (/^\d{10,11}$/.test(digits)) e164 = `+55${digits}`;
  else if (/^55\d{10,11}$/.test(digits)) e164 = `+${digits}`;
  else return fail("invalid_phone");
  return BRAZIL_MOBILE.test(e164) ? { ok: true, type: "phone", key: e164 } : fail("invalid_phone");
}

/**
 * The one PIX key parser. `type` in any case ("CPF", "Email"); when absent the key's shape decides
 * (see typeByShape). Returns the key in DICT form, or why it is refused with a message for the API.
 */
export function parsePixKey(raw: string, type?: string | null): PixKeyResult {
  if (typeof raw !== "string" || raw.trim() === "") return fail("empty");
  const k = raw.trim();
  let keyType: PixKeyType | null;
  const typeSent = !(type === undefined || type === null || type.trim() === "");
  if (!typeSent) {
    const shape = typeByShape(k);
    if (shape === null) return fail("not_a_key");
    if (shape === "ambiguous") return fail("ambiguous_digits");
    keyType = shape;
  } else {
    const lowered = type.trim().toLowerCase();
    if (!isPixKeyType(lowered)) {
      return fail("unknown_type", `Unknown PIX key type "${type}": use cpf, cnpj, email, phone or evp.`);
    }
    keyType = lowered;
  }

  switch (keyType) {
    case "cpf": {
      const cpf = normalizeDocument(k);
      return isValidCpf(cpf) ? { ok: true, type: "cpf", key: cpf } : invalidDocument("invalid_cpf", k, typeSent);
    }
    case "cnpj": {
      const cnpj = normalizeDocument(k);
      return isValidCnpj(cnpj) ? { ok: true, type: "cnpj", key: cnpj } : invalidDocument("invalid_cnpj", k, typeSent);
    }
    case "email": {
      const email = k.toLowerCase();
      if (email.length > EMAIL_MAX) return fail("email_too_long");
      return EMAIL.test(email) ? { ok: true, type: "email", key: email } : fail("invalid_email");
    }
    case "phone":
      return parsePhone(k);
    case "evp": {
      const evp = k.toLowerCase();
      return EVP.test(evp) ? { ok: true, type: "evp", key: evp } : fail("invalid_evp");
    }
  }
}
