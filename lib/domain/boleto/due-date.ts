/**
 * Boleto due dates are calendar days in Brasília time (UTC-03:00; Brazil has had no daylight saving
 * time since 2019), whatever the server's time zone. A boleto may be paid until the end of its due day.
 */
const DAY_MS = 86_400_000;
const BRASILIA_OFFSET_MS = -3 * 60 * 60 * 1000;

/** "YYYY-MM-DD" of `at` in Brasília. */
export function brasiliaDay(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError("Invalid date");
  return new Date(at.getTime() + BRASILIA_OFFSET_MS).toISOString().slice(0, 10);
}

export type DueDate = {
  /** "YYYY-MM-DD" */
  day: string;
  /** The day as UTC midnight: what the FEBRABAN factor is computed from. */
  utcMidnight: Date;
  /** 23:59:59.999 of the day in Brasília. */
  endOfDay: Date;
};

/** Today in Brasília plus `days` calendar days. */
export function dueDateAfter(now: Date, days: number): DueDate {
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError(`days must be a non-negative integer, got ${days}`);
  const today = Date.parse(`${brasiliaDay(now)}T00:00:00Z`);
  const utcMidnight = new Date(today + days * DAY_MS);
  return {
    day: utcMidnight.toISOString().slice(0, 10),
    utcMidnight,
    endOfDay: new Date(utcMidnight.getTime() + DAY_MS - 1 - BRASILIA_OFFSET_MS),
  };
}
