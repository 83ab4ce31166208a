/**
 * FEBRABAN due-date factor: days since 1997-10-07 (the base date), 4 digits. It reached 9999 on
 * 2025-02-21 and restarted at 1000 on 2025-02-22, repeating every 9000 days; so a factor names
 * many dates and is read as the one nearest a reference date.
 */

const DAY_MS = 86_400_000;
const BASE_DAY = Date.UTC(1997, 9, 7) / DAY_MS;
const FIRST_FACTOR = 1000;
const CYCLE = 9000;
/** Factor "0000": a boleto with no due date. */
export const NO_DUE_DATE_FACTOR = "0000";

function utcDayNumber(d: Date): number {
  if (Number.isNaN(d.getTime())) throw new RangeError("Invalid date");
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / DAY_MS;
}

/** Reads the UTC calendar date of `due`; the caller passes the due day as a UTC midnight. */
export function dueDateFactor(due: Date): string {
  const days = utcDayNumber(due) - BASE_DAY;
  // Before 2000-07-03 the factor had fewer than 4 significant digits; no boleto is due then now.
  if (days < FIRST_FACTOR) throw new RangeError(`No due-date factor for ${due.toISOString().slice(0, 10)}`);
  // Holds for both eras: days 1000..9999 map to themselves, day 10000 (2025-02-22) to 1000.
  return (((days - FIRST_FACTOR) % CYCLE) + FIRST_FACTOR).toString();
}

/** The date (UTC midnight) carrying this factor that is nearest `reference`; null for "0000". */
export function dueDateFromFactor(factor: string | number, reference: Date): Date | null {
  const text = typeof factor === "number" ? factor.toString().padStart(4, "0") : factor;
  if (!/^\d{4}$/.test(text)) throw new RangeError(`A due-date factor is 4 digits, got "${factor}"`);
  if (text === NO_DUE_DATE_FACTOR) return null;
  const value = Number(text);
  if (value < FIRST_FACTOR) throw new RangeError(`Due-date factor ${text} is out of range`);

  const refDays = utcDayNumber(reference) - BASE_DAY;
  const k = Math.max(0, Math.round((refDays - value) / CYCLE));
  let best = value + k * CYCLE;
  for (const candidate of [k - 1, k + 1].filter((c) => c >= 0).map((c) => value + c * CYCLE)) {
    const better = Math.abs(candidate - refDays) < Math.abs(best - refDays);
    if (better) best = candidate;
  }
  return new Date((BASE_DAY + best) * DAY_MS);
}
