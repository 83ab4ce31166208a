/**
 * Money is integer centavos everywhere (CONTRIBUTING.md, house rules): a float such as 0.1 + 0.2 cannot be
 * stored exactly, and one centavo lost per transaction is a reconciliation gap.
 */

export function isCentavos(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n);
}

function assertCentavos(n: number, what: string): void {
  if (!isCentavos(n)) throw new RangeError(`${what} must be an integer number of centavos, got ${n}`);
}

/** "R$ 1.234,56"; negative amounts as "-R$ 1,00". Plain ASCII space, so text and CSV compare exactly. */
export function formatBRL(cents: number): string {
  assertCentavos(cents, "amount");
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const reais = Math.floor(abs / 100).toString();
  const centavos = (abs % 100).toString().padStart(2, "0");
  const grouped = reais.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}R$ ${grouped},${centavos}`;
}

/**
 * `amount * basisPoints / 10000`, rounded half up to the centavo (docs/api.md, Fees: percentages are
 * rounded once, half up). BigInt keeps the product exact for any safe-integer amount.
 * 99 bp = 0.99%.
 */
export function percentOfRoundHalfUp(amount: number, basisPoints: number): number {
  assertCentavos(amount, "amount");
  if (amount < 0) throw new RangeError(`amount must not be negative, got ${amount}`);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`basisPoints must be a non-negative integer, got ${basisPoints}`);
  }
  const product = BigInt(amount) * BigInt(basisPoints);
  // floor((2p + 10000) / 20000) == floor(p / 10000 + 1/2): half up without leaving integers.
  return Number((product * 2n + 10_000n) / 20_000n);
}
