/**
 * Pure helpers of the API Pix processor: txids, money as the API's decimal strings, charge
 * expiration, the debtor, request builders, and the check of the BR Code a PSP returns. No network,
 * no clock, no environment; randomness comes in as a function.
 */
import { randomBytes } from "node:crypto";
import { isValidCnpj, isValidCpf, normalizeDocument } from "@/lib/domain/documents";
import { BrCodeError, buildDynamicBrCode, parseBrCode } from "@/lib/domain/pix/brcode";
import { parsePixKey } from "@/lib/domain/pix/keys";
import {
  COB_DEFAULT_EXPIRACAO,
  cobSolicitadaSchema,
  devolucaoSolicitadaSchema,
  TXID_REGEX,
  VALOR_REGEX,
  type CobGerada,
  type CobSolicitada,
  type Devedor,
  type DevolucaoSolicitada,
} from "./schemas";

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 62 * 4 = 248: bytes from 248 to 255 are dropped so each character is equally likely. */
const UNBIASED_LIMIT = 248;
export const TXID_LENGTH = 32;

export type RandomSource = (size: number) => Uint8Array;

/**
 * A txid for `PUT /cob/{txid}`: `length` (26 to 35) letters and digits drawn uniformly from
 * `random` (a CSPRNG by default). 32 characters carry 190 bits: two charges never get the same one,
 * and nobody can guess another charge's. The spec wants it unique per receiving CPF/CNPJ; the
 * caller still stores it under a unique constraint.
 */
export function generateTxid(random: RandomSource = randomBytes, length = TXID_LENGTH): string {
  if (!Number.isInteger(length) || length < 26 || length > 35) {
    throw new RangeError(`A txid has 26 to 35 characters, asked for ${length}`);
  }
  let out = "";
  while (out.length < length) {
    const bytes = random(length * 2);
    if (bytes.length === 0) throw new RangeError("The random source returned no bytes");
    for (const b of bytes) {
      if (b >= UNBIASED_LIMIT) continue;
      out += ALPHANUMERIC[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function isTxid(s: string): boolean {
  return TXID_REGEX.test(s);
}

/** The API's largest amount: 10 digits of reais ("9999999999.99"). */
export const MAX_VALOR_CENTS = 999_999_999_999;

/** 1234 -> "12.34", 5 -> "0.05". Integer centavos only; never a float on the way. */
export function centsToValor(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_VALOR_CENTS) {
    throw new RangeError(`An API Pix amount is 0 to ${MAX_VALOR_CENTS} centavos, got ${cents}`);
  }
  return `${Math.floor(cents / 100)}.${(cents % 100).toString().padStart(2, "0")}`;
}

/** "12.34" -> 1234. Anything but the spec's `\d{1,10}\.\d{2}` is refused ("12.3", "12,34", "1e3"). */
export function valorToCents(valor: string): number {
  if (typeof valor !== "string" || !VALOR_REGEX.test(valor)) {
    throw new RangeError(`Not an API Pix amount (digits, a dot and two decimals): "${valor}"`);
  }
  const [reais, centavos] = valor.split(".");
  return Number(reais) * 100 + Number(centavos);
}

const DAY_SECONDS = 86_400;
const INT32_MAX = 2_147_483_647;

/**
 * `calendario.expiracao` (seconds from the charge's creation) from the API's `expiresInSeconds`,
 * or else `expiresInDays`. Positive whole numbers only: the spec makes zero or less a violation.
 */
export function cobExpiracaoSeconds(input: { expiresInDays?: number; expiresInSeconds?: number }): number {
  const { expiresInDays, expiresInSeconds } = input;
  let seconds: number;
  if (expiresInSeconds !== undefined) {
    if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds < 1) {
      throw new RangeError(`expiresInSeconds must be a positive whole number, got ${expiresInSeconds}`);
    }
    seconds = expiresInSeconds;
  } else if (expiresInDays !== undefined) {
    if (!Number.isSafeInteger(expiresInDays) || expiresInDays < 1) {
      throw new RangeError(`expiresInDays must be a positive whole number, got ${expiresInDays}`);
    }
    seconds = expiresInDays * DAY_SECONDS;
  } else {
    throw new RangeError("Either expiresInSeconds or expiresInDays is needed");
  }
  if (seconds > INT32_MAX) throw new RangeError(`calendario.expiracao is at most ${INT32_MAX} seconds, got ${seconds}`);
  return seconds;
}

/**
 * When the charge stops being payable: `calendario.criacao` + `calendario.expiracao` seconds (the
 * spec's default, 86400, when the charge carries none: ApiPixClient.createCob fills in what was asked
 * for before it gets here).
 */
export function cobExpiresAt(cob: Pick<CobGerada, "calendario">): Date {
  const created = Date.parse(cob.calendario.criacao);
  if (Number.isNaN(created)) throw new RangeError(`Invalid calendario.criacao "${cob.calendario.criacao}"`);
  return new Date(created + (cob.calendario.expiracao ?? COB_DEFAULT_EXPIRACAO) * 1000);
}

export type CustomerLike = { name: string; document?: { type: string; number: string } | null };

const NOME_MAX = 200;

/**
 * `devedor` from the API's customer: `{ cpf, nome }` or `{ cnpj, nome }`, the document as digits and
 * the name trimmed to the spec's 200 characters. Returns null when there is nothing the API Pix can
 * carry: no document, or an alphanumeric CNPJ (valid from July 2026, but the spec's pattern is 14
 * digits); `devedor` is optional, the charge is created without it. An invalid document throws.
 */
export function devedorFromCustomer(customer: CustomerLike): Devedor | null {
  const doc = customer.document;
  if (!doc) return null;
  const nome = Array.from(customer.name.replace(/\s+/g, " ").trim()).slice(0, NOME_MAX).join("").trim();
  if (nome === "") throw new RangeError("The debtor's name is empty");
  const number = normalizeDocument(doc.number);
  switch (doc.type.toLowerCase()) {
    case "cpf":
      if (!isValidCpf(number)) throw new RangeError("The debtor's CPF is not valid");
      return { cpf: number, nome };
    case "cnpj":
      if (!isValidCnpj(number)) throw new RangeError("The debtor's CNPJ is not valid");
      return /^\d{14}$/.test(number) ? { cnpj: number, nome } : null;
    default:
      throw new RangeError(`Unknown document type "${doc.type}"`);
  }
}

export type CobRequestInput = {
  /** Centavos, more than zero. */
  amount: number;
  /** The merchant's PIX key at this PSP, in any form a person types it: it is sent in DICT form. */
  chave: string;
  /** Seconds (see cobExpiracaoSeconds). */
  expiracao: number;
  devedor?: Devedor | null;
  /** Text shown to the payer (up to 140 characters). */
  solicitacaoPagador?: string;
};

/** The body of `PUT /cob/{txid}` for an immediate charge of a fixed amount. */
export function buildCobRequest(input: CobRequestInput): CobSolicitada {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new RangeError(`A charge's amount must be a positive number of centavos, got ${input.amount}`);
  }
  const key = parsePixKey(input.chave);
  if (!key.ok) throw new RangeError(key.message);
  const body: CobSolicitada = {
    calendario: { expiracao: input.expiracao },
    valor: { original: centsToValor(input.amount) },
    chave: key.key,
  };
  if (input.devedor) body.devedor = input.devedor;
  const note = input.solicitacaoPagador?.replace(/\s+/g, " ").trim();
  if (note) body.solicitacaoPagador = Array.from(note).slice(0, 140).join("");
  return cobSolicitadaSchema.parse(body);
}

/**
 * The body of `PUT /pix/{e2eid}/devolucao/{id}`: a refund of `amount` centavos of a common Pix.
 * `natureza` is sent only when it is RETIRADA (a Pix Saque or Troco): absent means ORIGINAL in the
 * spec, and some PSPs refuse the field on a common Pix.
 */
export function buildDevolucaoRequest(input: { amount: number; descricao?: string; natureza?: DevolucaoSolicitada["natureza"] }): DevolucaoSolicitada {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new RangeError(`A refund's amount must be a positive number of centavos, got ${input.amount}`);
  }
  const body: DevolucaoSolicitada = { valor: centsToValor(input.amount) };
  if (input.natureza === "RETIRADA") body.natureza = "RETIRADA";
  const text = input.descricao?.replace(/\s+/g, " ").trim();
  if (text) body.descricao = Array.from(text).slice(0, 140).join("");
  return devolucaoSolicitadaSchema.parse(body);
}

/** A refund id (1 to 35 letters or digits) unique per Pix: the refund's own id is a fine source. */
export function devolucaoIdFor(refundId: number | string): string {
  const id = String(refundId).replace(/[^a-zA-Z0-9]/g, "");
  if (id.length < 1 || id.length > 35) throw new RangeError(`Cannot make a devolução id from "${refundId}"`);
  return id;
}

/** The payload location as field 26-25 carries it: without a scheme ("https://"), which some PSPs add. */
export function locationWithoutScheme(location: string): string {
  return location.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
}

/** A location compared as a URL is: the host (before the first "/") in any case, the path as is. */
function sameLocation(a: string, b: string): boolean {
  const split = (s: string) => {
    const l = locationWithoutScheme(s);
    const i = l.indexOf("/");
    return i < 0 ? [l.toLowerCase(), ""] : [l.slice(0, i).toLowerCase(), l.slice(i)];
  };
  const [ha, pa] = split(a);
  const [hb, pb] = split(b);
  return ha === hb && pa === pb;
}

/**
 * The dynamic BR Code of a charge whose PSP answered without `pixCopiaECola` (optional in the spec
 * since 2.6.0): built from the charge's payload location (scheme removed) with the merchant's name
 * and city (buildDynamicBrCode, lib/domain/pix/brcode.ts).
 */
export function dynamicBrCodeFromLocation(input: { location: string; merchantName: string; merchantCity: string }): string {
  return buildDynamicBrCode({ ...input, location: locationWithoutScheme(input.location) });
}

/**
 * Checks the BR Code a PSP returned for a charge before anyone is shown it: a well-formed payload
 * with a valid CRC, in the dynamic form (a location in field 26-25, no key), whose location is the
 * charge's own. Returns a sentence saying what is wrong, or null when it is fine.
 */
export function pixCopiaEColaProblem(cob: Pick<CobGerada, "pixCopiaECola" | "location" | "loc">): string | null {
  const payload = cob.pixCopiaECola;
  if (payload === undefined) return "the charge has no pixCopiaECola";
  let parsed;
  try {
    parsed = parseBrCode(payload);
  } catch (e) {
    return `pixCopiaECola is not a BR Code (${e instanceof BrCodeError ? e.message : "unreadable"})`;
  }
  if (!parsed.crcValid) return "pixCopiaECola has a wrong CRC";
  if (parsed.url === null) return "pixCopiaECola is not a dynamic BR Code (no location in field 26-25)";
  const location = cob.location ?? cob.loc?.location;
  // The same location as the charge's: a scheme on either side ("https://") and the host's case are
  // not differences (a PSP may write `location` with its scheme, or its host in capitals).
  if (location !== undefined && !sameLocation(parsed.url, location)) {
    return "pixCopiaECola points to another location than the charge's";
  }
  return null;
}
