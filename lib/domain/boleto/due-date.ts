/**
 * Boleto due dates are calendar days in Brasília time (UTC-03:00; Brazil has had no daylight saving
 * time since 2019), whatever the server's time zone. A boleto may be paid until the end of its due day.
 */
import { brasiliaDay, DAY_MS, endOfBrasiliaDay } from "@/lib/domain/time";

export { brasiliaDay };

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
    endOfDay: endOfBrasiliaDay(utcMidnight),
  };
}
