import type { TransactionRow } from "./rows";

/** The card as every response shows it: never more than brand, holder, first 6, last 4 and expiry. */
export function cardView(t: TransactionRow) {
  return {
    brand: t.cardBrand,
    holderName: t.cardHolderName,
    firstDigits: t.cardFirstDigits,
    lastDigits: t.cardLastDigits,
    expirationMonth: t.cardExpirationMonth,
    expirationYear: t.cardExpirationYear,
  };
}

/** "03" -> 3, "2030" -> 2030; null stays null (a stored expiry is always digits). */
function wholeOrNull(v: string | null): number | null {
  if (v === null || !/^\d+$/.test(v)) return null;
  return Number(v);
}

/**
 * The card as /v1 shows it: the family's clients read the expiry as integers (`expirationMonth: 3`,
 * `expirationYear: 2030`); /api/v1 keeps the contract's strings ("03", "2030").
 */
export function v1CardView(t: TransactionRow) {
  return { ...cardView(t), expirationMonth: wholeOrNull(t.cardExpirationMonth), expirationYear: wholeOrNull(t.cardExpirationYear) };
}
