/**
 * What the /v1 dialect accepts beyond the contract, as the family's clients send it. Each rewrite
 * turns a family form into the contract's form before the shared validation runs, so the rules
 * (and their error messages) stay one; docs/switching.md lists them with the test of each.
 *
 * Pure functions of the JSON body (and the caller's address): no database, no env.
 */
import { isIP } from "node:net";
import { ServiceError } from "@/lib/services/errors";
import { PIX_EXPIRES_IN_DAYS, ShippingAddressField } from "@/lib/schemas/transactions";

type Json = Record<string, unknown>;

const DAY_SECONDS = 86_400;

/** Default of `items[].tangible` when a /v1 client leaves it out: digital goods or services. */
export const V1_DEFAULT_TANGIBLE = false;

/** Recorded as the payer's address of a card charge when neither the body nor the request has one. */
export const UNKNOWN_IP = "0.0.0.0";

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** "" or spaces only: what a family client sends for a field it has no value for (`phone || ''`). */
function blank(v: unknown): boolean {
  return typeof v === "string" && v.trim() === "";
}

/** The object without the keys in `keys` whose value is blank (so the validation sees them absent). */
function withoutBlank(o: Json, keys: readonly string[]): Json {
  const out: Json = { ...o };
  for (const k of keys) if (blank(out[k])) delete out[k];
  return out;
}

/** Optional fields of a charge that the family's clients send as "" when they have no value. */
export const V1_BLANK_AS_ABSENT = {
  top: ["postbackUrl", "returnUrl", "externalRef", "ip", "installments"],
  shipping: ["fee"],
  customer: ["phone", "externalRef"],
  item: ["externalRef"],
  card: ["hash"],
} as const;

/** tangible as 1/0 or "true"/"false" (a database flag or a form value): the boolean; anything else left for the validation. */
function flag(v: unknown): unknown {
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (t === "true" || t === "1") return true;
    if (t === "false" || t === "0") return false;
  }
  return v;
}

/** "1000" -> 1000 (whole numbers only; anything else is left for the validation to reject). */
function numeric(v: unknown): unknown {
  return typeof v === "string" && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : v;
}

/**
 * The caller's address: the first X-Forwarded-For hop (Next's server sets it from the socket, a
 * proxy in front appends to it), else X-Real-IP; null when neither is a valid address.
 */
export function callerIp(headers: Headers): string | null {
  const candidates = [headers.get("x-forwarded-for")?.split(",")[0], headers.get("x-real-ip")];
  for (const c of candidates) {
    const ip = c?.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
    if (ip && isIP(ip)) return ip;
  }
  return null;
}

/** POST /v1/transactions: the family's request forms, rewritten to the contract's. */
export function v1TransactionBody(raw: unknown, ip: string | null): unknown {
  if (!isObject(raw)) return raw;
  // Optional text fields sent as "" (or spaces): absent, as the family's gateways take them.
  const body: Json = withoutBlank(raw, V1_BLANK_AS_ABSENT.top);
  if (isObject(body.customer)) body.customer = withoutBlank(body.customer, V1_BLANK_AS_ABSENT.customer);
  if (isObject(body.card)) body.card = withoutBlank(body.card, V1_BLANK_AS_ABSENT.card);
  if (isObject(body.shipping)) body.shipping = withoutBlank(body.shipping, V1_BLANK_AS_ABSENT.shipping);

  // Amounts as numeric strings ("1000"), as some clients build them from form fields.
  body.amount = numeric(body.amount);

  // items[].tangible optional, or 1/0, "true"/"false"; unitPrice and quantity as numeric strings;
  // name and price, some of the family's gateways' names for title and unitPrice.
  if (Array.isArray(body.items)) {
    body.items = body.items.map((item, i) => {
      if (!isObject(item)) return item;
      const named = aliased(aliased(item, i, "name", "title"), i, "price", "unitPrice");
      return {
        ...withoutBlank(named, V1_BLANK_AS_ABSENT.item),
        unitPrice: numeric(named.unitPrice),
        quantity: numeric(named.quantity),
        tangible: named.tangible === undefined || named.tangible === null || blank(named.tangible) ? V1_DEFAULT_TANGIBLE : flag(named.tangible),
      };
    });
  }

  // The delivery address some family clients send only as customer.address: the shipping address when
  // the body has none. Taken only when it reads as one (the address fields, as text within their
  // limits); anything else is ignored, as any unknown field is.
  if (isObject(body.customer) && isObject(body.customer.address)) {
    const shipping = isObject(body.shipping) ? body.shipping : body.shipping == null ? {} : null;
    const address = familyAddress(body.customer.address);
    if (shipping && shipping.address == null && address) body.shipping = { ...shipping, address };
  }

  // customer.document as the bare number: CPF with 11 digits, CNPJ with 14 characters.
  if (isObject(body.customer) && (typeof body.customer.document === "string" || typeof body.customer.document === "number")) {
    const number = String(body.customer.document);
    const stripped = number.replace(/[\s./-]/g, "");
    body.customer = { ...body.customer, document: { type: stripped.length > 11 ? "cnpj" : "cpf", number } };
  }

  // pix.expiresInSeconds beside expiresInDays: rounded up to whole days (at least 1).
  if (isObject(body.pix) && body.pix.expiresInSeconds !== undefined && body.pix.expiresInSeconds !== null && body.pix.expiresInDays == null) {
    const seconds = numeric(body.pix.expiresInSeconds);
    const max = PIX_EXPIRES_IN_DAYS.max * DAY_SECONDS;
    if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 1 || seconds > max) {
      throw new ServiceError("validation_error", `The transaction is invalid: pix.expiresInSeconds must be a whole number from 1 to ${max}.`, [
        { field: "pix.expiresInSeconds", message: `must be a whole number from 1 to ${max} (${PIX_EXPIRES_IN_DAYS.max} days)` },
      ]);
    }
    const pix: Json = { ...body.pix, expiresInDays: Math.max(1, Math.ceil(seconds / DAY_SECONDS)) };
    delete pix.expiresInSeconds;
    body.pix = pix;
  }

  // ip optional for cards: the caller's address is recorded instead.
  const method = typeof body.paymentMethod === "string" ? body.paymentMethod.trim().toLowerCase() : "";
  if (method === "credit_card" && (body.ip === undefined || body.ip === null || body.ip === "")) {
    body.ip = ip ?? UNKNOWN_IP;
  }
  return body;
}

/**
 * An item's field under another name (`name` for `title`, `price` for `unitPrice`): moved to the
 * contract's name when that is absent; both with different values is a 400 naming them, never a guess.
 */
function aliased(item: Json, index: number, alias: string, name: string): Json {
  if (item[alias] === undefined) return item;
  const out: Json = { ...item };
  delete out[alias];
  if (item[name] === undefined || item[name] === null) return { ...out, [name]: item[alias] };
  if (String(item[name]).trim() === String(item[alias]).trim()) return out;
  throw new ServiceError("validation_error", `The transaction is invalid: items.${index}.${alias} and items.${index}.${name} differ.`, [
    { field: `items.${index}.${alias}`, message: `is another name for ${name}, which was sent with another value; send one of them` },
  ]);
}

/** customer.address as a shipping address: its address fields (ShippingAddressField), when they pass that validation and one has a value. */
function familyAddress(a: Json): Json | null {
  const out: Json = {};
  for (const k of Object.keys(ShippingAddressField.shape)) if (a[k] !== undefined) out[k] = a[k];
  const parsed = ShippingAddressField.safeParse(out);
  return parsed.success && Object.values(parsed.data).some((v) => v !== null) ? out : null;
}

/** POST /v1/card-token: expMonth / expYear (the family's script fields) beside expirationMonth / expirationYear. */
export function v1CardTokenBody(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  if (isObject(raw.card)) return { ...raw, card: cardFields(raw.card) };
  return cardFields(raw);
}

function cardFields(card: Json): Json {
  const out: Json = { ...card };
  if (out.expirationMonth === undefined && out.expMonth !== undefined) out.expirationMonth = out.expMonth;
  if (out.expirationYear === undefined && out.expYear !== undefined) out.expirationYear = out.expYear;
  delete out.expMonth;
  delete out.expYear;
  return out;
}
