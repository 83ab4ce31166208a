/**
 * Card brand from the BIN (first digits). Elo and Hipercard are Brazilian brands whose BINs sit
 * inside Visa, Mastercard, Diners and Discover ranges, so they are tested first.
 */

export const CARD_BRANDS = ["elo", "hipercard", "visa", "mastercard", "amex", "diners", "discover", "jcb"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

type Range = readonly [from: number, to: number];

// Elo's published BINs (6 digits). Single BINs are written as [n, n].
const ELO_BINS: readonly Range[] = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650920],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

// Hipercard: 606282, and the 3841-x0 BINs that sit inside Diners' 38.
const HIPERCARD_BINS: readonly Range[] = [
  [606282, 606282],
  [384100, 384100],
  [384140, 384140],
  [384160, 384160],
];

function prefix(pan: string, digits: number): number {
  return Number(pan.slice(0, digits));
}

function inRanges(value: number, ranges: readonly Range[]): boolean {
  return ranges.some(([from, to]) => value >= from && value <= to);
}

function between(pan: string, digits: number, from: number, to: number): boolean {
  if (pan.length < digits) return false;
  const p = prefix(pan, digits);
  return p >= from && p <= to;
}

export function detectBrand(pan: string): CardBrand | null {
  const digits = pan.replace(/[\s-]/g, "");
  if (!/^\d{6,19}$/.test(digits)) return null;
  const bin = prefix(digits, 6);
  if (inRanges(bin, ELO_BINS)) return "elo";
  if (inRanges(bin, HIPERCARD_BINS)) return "hipercard";
  if (between(digits, 2, 34, 34) || between(digits, 2, 37, 37)) return "amex";
  if (between(digits, 4, 3528, 3589)) return "jcb";
  if (between(digits, 3, 300, 305) || between(digits, 2, 36, 36) || between(digits, 2, 38, 39)) return "diners";
  if (between(digits, 4, 6011, 6011) || between(digits, 3, 644, 649) || between(digits, 2, 65, 65)) return "discover";
  if (between(digits, 2, 51, 55) || between(digits, 4, 2221, 2720)) return "mastercard";
  if (digits.startsWith("4")) return "visa";
  return null;
}

const PAN_LENGTHS: { readonly [B in CardBrand]: readonly number[] } = {
  elo: [16],
  hipercard: [13, 16, 19],
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  diners: [14, 16, 19],
  discover: [16, 17, 18, 19],
  jcb: [16, 17, 18, 19],
};

export function panLengthOk(brand: CardBrand, pan: string): boolean {
  return PAN_LENGTHS[brand].includes(pan.replace(/[\s-]/g, "").length);
}

/** American Express prints a 4-digit CID on the front; every other brand a 3-digit CVV/CVC. */
export function cvvLength(brand: CardBrand): 3 | 4 {
  return brand === "amex" ? 4 : 3;
}
