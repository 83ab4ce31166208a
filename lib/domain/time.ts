/**
 * Brasília time, declared once. Brazil's business days (boleto due dates, the dashboard's days, the
 * times a payer reads) are counted in it: UTC-03:00, with no daylight saving time since 2019,
 * whatever the server's time zone.
 */
export const BRASILIA_TIME_ZONE = "America/Sao_Paulo";
export const BRASILIA_OFFSET_MS = -3 * 60 * 60 * 1000;
export const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of `at` in Brasília. */
export function brasiliaDay(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError("Invalid date");
  return new Date(at.getTime() + BRASILIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** 23:59:59.999 in Brasília of the day whose UTC midnight is `utcMidnight`. */
export function endOfBrasiliaDay(utcMidnight: Date): Date {
  return new Date(utcMidnight.getTime() + DAY_MS - 1 - BRASILIA_OFFSET_MS);
}
