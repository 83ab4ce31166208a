/**
 * Card data as the payer's browser sends it to tokenization. Clients of this gateway family send
 * every field as a string or a number ("expirationMonth": 1, "expirationYear": "30"), so both are
 * accepted and normalized here; the checks are the ones an issuer would refuse on anyway.
 */
import { z } from "zod";
import { cvvLength, detectBrand, panLengthOk, type CardBrand } from "@/lib/domain/card/brand";
import { luhnValid } from "@/lib/domain/card/luhn";

const field = z.union([z.string(), z.number()]).optional().nullable();

export const CardInput = z.object({
  number: field,
  holderName: field,
  expirationMonth: field,
  expirationYear: field,
  cvv: field,
});
export type CardInput = z.infer<typeof CardInput>;

export type ValidCard = {
  number: string;
  holderName: string;
  /** "MM" */
  expirationMonth: string;
  /** "YYYY" */
  expirationYear: string;
  cvv: string;
  brand: CardBrand;
};

export type CardFieldError = { field: keyof ValidCard & keyof CardInput; message: string };

export type CardValidation = { ok: true; card: ValidCard } | { ok: false; errors: CardFieldError[] };

const HOLDER_NAME_MAX = 100;
// Issuers do not emit cards valid for more than about 20 years; a later year is a typing error.
const MAX_YEARS_AHEAD = 20;

function asText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  // A number beyond 2^53 has already lost digits; asText returns it anyway and Luhn then fails.
  return typeof v === "number" ? (Number.isInteger(v) ? BigInt(v).toString() : String(v)) : v.trim();
}

export function validateCard(input: CardInput, now: Date): CardValidation {
  const errors: CardFieldError[] = [];

  const number = asText(input.number).replace(/[\s-]/g, "");
  let brand: CardBrand | null = null;
  if (number === "") {
    errors.push({ field: "number", message: "Card number is required." });
  } else if (!/^\d{12,19}$/.test(number)) {
    errors.push({ field: "number", message: "Card number must have 12 to 19 digits." });
  } else if (typeof input.number === "number" && !Number.isSafeInteger(input.number)) {
    errors.push({ field: "number", message: "Card number is too long to send as a JSON number; send it as a string." });
  } else if (!luhnValid(number)) {
    errors.push({ field: "number", message: "Card number is invalid (check digit)." });
  } else {
    brand = detectBrand(number);
    if (brand === null) errors.push({ field: "number", message: "Card brand is not accepted." });
    else if (!panLengthOk(brand, number)) {
      errors.push({ field: "number", message: `Card number length is invalid for ${brand}.` });
    }
  }

  const holderName = asText(input.holderName).replace(/\s+/g, " ");
  if (holderName === "") errors.push({ field: "holderName", message: "Holder name is required." });
  else if (holderName.length > HOLDER_NAME_MAX) {
    errors.push({ field: "holderName", message: `Holder name has at most ${HOLDER_NAME_MAX} characters.` });
  }

  const monthText = asText(input.expirationMonth);
  const month = /^\d{1,2}$/.test(monthText) ? Number(monthText) : NaN;
  const monthOk = month >= 1 && month <= 12;
  if (!monthOk) errors.push({ field: "expirationMonth", message: "Expiration month must be 1 to 12." });

  const yearText = asText(input.expirationYear);
  let year = NaN;
  if (/^\d{2}$/.test(yearText)) year = 2000 + Number(yearText);
  else if (/^\d{4}$/.test(yearText)) year = Number(yearText);
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  if (Number.isNaN(year)) {
    errors.push({ field: "expirationYear", message: "Expiration year must have 2 or 4 digits." });
  } else if (year > nowYear + MAX_YEARS_AHEAD) {
    errors.push({ field: "expirationYear", message: "Expiration year is too far in the future." });
  } else if (year < nowYear || (monthOk && year === nowYear && month < nowMonth)) {
    // A card is good through the last day of its expiration month.
    errors.push({ field: year < nowYear ? "expirationYear" : "expirationMonth", message: "Card is expired." });
  }

  const cvv = asText(input.cvv);
  if (!/^\d+$/.test(cvv)) {
    errors.push({ field: "cvv", message: "Security code (CVV) must be digits." });
  } else if (brand !== null && cvv.length !== cvvLength(brand)) {
    errors.push({ field: "cvv", message: `Security code (CVV) must have ${cvvLength(brand)} digits for ${brand}.` });
  } else if (brand === null && (cvv.length < 3 || cvv.length > 4)) {
    errors.push({ field: "cvv", message: "Security code (CVV) must have 3 or 4 digits." });
  }

  if (errors.length > 0 || brand === null) return { ok: false, errors };
  return {
    ok: true,
    card: {
      number,
      holderName,
      expirationMonth: month.toString().padStart(2, "0"),
      expirationYear: year.toString(),
      cvv,
      brand,
    },
  };
}
