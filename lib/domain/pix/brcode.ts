/**
 * BR Code: the EMV Merchant-Presented QR payload as profiled by Banco Central for PIX
 * (Manual de Padrões para Iniciação do Pix). Each field is ID (2 digits) + length (2 digits) + value;
 * field 63 closes the payload with the CRC16 of everything before its value.
 */
import { crc16ccitt } from "@/lib/domain/pix/crc16";
import { parsePixKey } from "@/lib/domain/pix/keys";
import { asciiFold, hasAsciiLetterOrDigit } from "@/lib/domain/text";

export class BrCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrCodeError";
  }
}

export const PIX_GUI = "br.gov.bcb.pix";
const MERCHANT_NAME_MAX = 25;
const MERCHANT_CITY_MAX = 15;
const TXID_MAX = 25;
// Field 54 allows "\d{1,10}\.\d{2}": at most 9 999 999 999,99 reais.
const AMOUNT_MAX_CENTS = 999_999_999_999;

/**
 * What field 59 and 60 carry when the merchant's name or city has nothing left after folding and
 * transliteration (an emoji-only name, say): a charge must never fail for the way a name is written.
 */
export const FALLBACK_MERCHANT_NAME = "RECEBEDOR";
export const FALLBACK_MERCHANT_CITY = "BRASIL";

/**
 * The manual restricts name and city to ASCII (and many bank apps miscount multi-byte lengths):
 * folded and transliterated (lib/domain/text.ts), cut to the field's length, else the fallback.
 */
function asciiField(s: string, max: number, fallback: string): string {
  const folded = asciiFold(s).slice(0, max).trim();
  return hasAsciiLetterOrDigit(folded) ? folded : fallback;
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new BrCodeError(`BR Code field ${id} is longer than 99 characters`);
  return id + value.length.toString().padStart(2, "0") + value;
}

function formatAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${(cents % 100).toString().padStart(2, "0")}`;
}

export type StaticBrCodeInput = {
  key: string;
  merchantName: string;
  merchantCity: string;
  /** Centavos. Omitted only for a reusable code where the payer types the amount. */
  amount?: number;
  /** Up to 25 alphanumerics, unique per charge so the PSP can reconcile it; "***" when none. */
  txid: string;
  description?: string;
};

/**
 * Static BR Code (key in field 26-01), normally with an amount and a txid. Field 01 (point of
 * initiation) is omitted: the manual makes it optional, and "12" (single use) is meant for
 * dynamic payloads.
 */
export function buildStaticBrCode(input: StaticBrCodeInput): string {
  const key = parsePixKey(input.key);
  if (!key.ok) throw new BrCodeError(key.message);
  const amount = input.amount;
  if (amount !== undefined && (!Number.isSafeInteger(amount) || amount <= 0 || amount > AMOUNT_MAX_CENTS)) {
    throw new BrCodeError(`BR Code amount must be a positive integer of centavos, got ${input.amount}`);
  }
  if (input.txid !== "***" && !new RegExp(`^[A-Za-z0-9]{1,${TXID_MAX}}$`).test(input.txid)) {
    throw new BrCodeError(`BR Code txid must be 1 to ${TXID_MAX} letters or digits, got "${input.txid}"`);
  }
  const name = asciiField(input.merchantName, MERCHANT_NAME_MAX, FALLBACK_MERCHANT_NAME);
  const city = asciiField(input.merchantCity, MERCHANT_CITY_MAX, FALLBACK_MERCHANT_CITY);

  let account = tlv("00", PIX_GUI) + tlv("01", key.key);
  if (input.description) {
    // The whole field 26 is at most 99 characters; the description gets what the key leaves.
    const room = 99 - account.length - 4;
    const description = asciiFold(input.description).slice(0, Math.max(room, 0)).trim();
    if (description !== "") account += tlv("02", description);
  }

  const body =
    tlv("00", "01") +
    tlv("26", account) +
    tlv("52", "0000") +
    tlv("53", "986") +
    (amount !== undefined ? tlv("54", formatAmount(amount)) : "") +
    tlv("58", "BR") +
    tlv("59", name) +
    tlv("60", city) +
    tlv("62", tlv("05", input.txid)) +
    "6304";
  return body + crc16ccitt(body);
}

export type DynamicBrCodeInput = {
  /** The charge's payload location (field 26-25), without a scheme: "pix.psp.example/qr/v2/…". */
  location: string;
  merchantName: string;
  merchantCity: string;
};

/**
 * Dynamic BR Code (the Manual de Padrões para Iniciação do Pix): 00=01, 01=12 (single use),
 * 26 = { 00=br.gov.bcb.pix, 25=location }, 52=0000, 53=986, no amount (54 is optional in a dynamic
 * code: the payer's app reads the amount from the payload at the location), 58=BR, 59 name, 60 city,
 * 62 = { 05=*** }, 63 CRC16. Name and city folded to ASCII as the static code's are.
 */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const location = input.location;
  if (location === "" || /\s/.test(location) || /^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new BrCodeError("The charge's location must be a URL without its scheme, with no spaces");
  }
  const body =
    tlv("00", "01") +
    tlv("01", "12") +
    tlv("26", tlv("00", PIX_GUI) + tlv("25", location)) +
    tlv("52", "0000") +
    tlv("53", "986") +
    tlv("58", "BR") +
    tlv("59", asciiField(input.merchantName, MERCHANT_NAME_MAX, FALLBACK_MERCHANT_NAME)) +
    tlv("60", asciiField(input.merchantCity, MERCHANT_CITY_MAX, FALLBACK_MERCHANT_CITY)) +
    tlv("62", tlv("05", "***")) +
    "6304";
  return body + crc16ccitt(body);
}

/** Splits a run of ID-length-value fields; throws on a truncated or non-numeric header. */
export function parseTlv(s: string): { id: string; value: string }[] {
  const out: { id: string; value: string }[] = [];
  let i = 0;
  while (i < s.length) {
    const header = s.slice(i, i + 4);
    if (!/^\d{4}$/.test(header)) throw new BrCodeError(`Malformed BR Code field at position ${i}`);
    const length = Number(header.slice(2));
    const value = s.slice(i + 4, i + 4 + length);
    if (value.length !== length) throw new BrCodeError(`BR Code field ${header.slice(0, 2)} is truncated`);
    out.push({ id: header.slice(0, 2), value });
    i += 4 + length;
  }
  return out;
}

function toRecord(fields: { id: string; value: string }[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const f of fields) {
    if (f.id in record) throw new BrCodeError(`BR Code field ${f.id} appears twice`);
    record[f.id] = f.value;
  }
  return record;
}

function parseAmount(value: string): number {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) throw new BrCodeError(`BR Code amount "${value}" is not a decimal number`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

export type ParsedBrCode = {
  /** Top-level fields by ID ("00", "26", "54", ...). */
  fields: Record<string, string>;
  /** Subfields of the PIX merchant account template (GUI br.gov.bcb.pix). */
  merchantAccount: Record<string, string>;
  /** Subfields of field 62 (05 = txid). */
  additionalData: Record<string, string>;
  /** Static payloads carry the key (26-01); dynamic ones a location URL (26-25) instead. */
  key: string | null;
  url: string | null;
  description: string | null;
  /** Centavos; absent when the payer chooses the amount. */
  amount?: number;
  txid: string | null;
  merchantName: string;
  merchantCity: string;
  crcValid: boolean;
};

export function parseBrCode(payload: string): ParsedBrCode {
  const text = payload.trim();
  const top = parseTlv(text);
  if (top.length === 0 || top[0].id !== "00" || top[0].value !== "01") {
    throw new BrCodeError("A BR Code starts with field 00 = 01");
  }
  const last = top[top.length - 1];
  if (last.id !== "63" || last.value.length !== 4) {
    throw new BrCodeError("A BR Code ends with field 63, a 4-character CRC");
  }
  const fields = toRecord(top);
  const crcValid = crc16ccitt(text.slice(0, -4)) === last.value.toUpperCase();

  // Merchant account templates live in IDs 26 to 51; PIX's is the one whose GUI is br.gov.bcb.pix.
  let merchantAccount: Record<string, string> | undefined;
  for (const f of top) {
    const id = Number(f.id);
    if (id < 26 || id > 51) continue;
    const sub = toRecord(parseTlv(f.value));
    if (sub["00"]?.toLowerCase() === PIX_GUI) {
      merchantAccount = sub;
      break;
    }
  }
  if (!merchantAccount) throw new BrCodeError(`The BR Code has no ${PIX_GUI} merchant account field`);

  const additionalData = fields["62"] !== undefined ? toRecord(parseTlv(fields["62"])) : {};
  const parsed: ParsedBrCode = {
    fields,
    merchantAccount,
    additionalData,
    key: merchantAccount["01"] ?? null,
    url: merchantAccount["25"] ?? null,
    description: merchantAccount["02"] ?? null,
    txid: additionalData["05"] ?? null,
    merchantName: fields["59"] ?? "",
    merchantCity: fields["60"] ?? "",
    crcValid,
  };
  if (fields["54"] !== undefined) parsed.amount = parseAmount(fields["54"]);
  return parsed;
}
