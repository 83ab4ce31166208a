import { validateCard, type CardInput } from "@/lib/domain/card/validate";
import { findAccountByPublicKey } from "../accounts/accounts";
import { sealCardToken } from "./card-tokens";
import { ServiceError } from "../errors";

/**
 * Tokenizes a card from the payer's browser: authenticated by the account's public key only. The
 * body may be the card itself or wrapped as `{ card: {...} }`; fields as strings or numbers. Field
 * errors name the field as it was sent ("number" or "card.number"); they never echo the values.
 */
export async function tokenizeCard(publicKey: string | null, body: unknown, now: Date): Promise<string> {
  const account = publicKey ? await findAccountByPublicKey(publicKey.trim()) : null;
  if (!account) {
    throw new ServiceError(
      "unauthorized",
      publicKey ? "Unknown public key." : "The publicKey query parameter (pk_...) is required.",
    );
  }
  const wrapped = isObject(body) && isObject(body.card);
  const raw = wrapped ? (body as { card: Record<string, unknown> }).card : body;
  const prefix = wrapped ? "card." : "";
  if (!isObject(raw)) {
    throw new ServiceError("validation_error", "The card is missing: send number, holderName, expirationMonth, expirationYear and cvv.", [
      { field: "body", message: "must be a JSON object with the card fields" },
    ]);
  }
  const input: CardInput = {
    number: scalar(raw.number),
    holderName: scalar(raw.holderName),
    expirationMonth: scalar(raw.expirationMonth),
    expirationYear: scalar(raw.expirationYear),
    cvv: scalar(raw.cvv),
  };
  const result = validateCard(input, now);
  if (!result.ok) {
    const errors = result.errors.map((e) => ({ field: prefix + e.field, message: e.message }));
    const message =
      errors.length === 1 ? `The card is invalid: ${errors[0].message}` : `The card is invalid: ${errors.length} fields have problems.`;
    throw new ServiceError("validation_error", message, errors);
  }
  return sealCardToken(result.card, account.id, now);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Strings and numbers pass; anything else (objects, booleans) reads as missing and fails validation. */
function scalar(v: unknown): string | number | null {
  return typeof v === "string" || typeof v === "number" ? v : null;
}
