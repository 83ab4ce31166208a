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
