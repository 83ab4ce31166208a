/**
 * Dates and instants that clients write (list filters, a payment link's expiry), parsed strictly:
 * ISO 8601 `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]`, a real calendar day
 * (2026-02-30 is refused, not rolled over to March), and within years 1 to 9999, the range every
 * layer (JavaScript, PostgreSQL, JSON) writes the same way. A date-time without an offset is UTC.
 * JavaScript's own `Date.parse` is not used: it accepts "-1" (2001-01-01), rolls invalid days over,
 * and yields instants PostgreSQL cannot store.
 */

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

export type IsoDate =
  /** A calendar day: `day` as written (YYYY-MM-DD), `instant` its first moment in UTC. */
  | { kind: "date"; day: string; instant: Date }
  | { kind: "date-time"; instant: Date };

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Date.UTC reads years 0 to 99 as 1900 to 1999; setUTCFullYear does not.
function utc(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, m, s, ms);
  return d;
}

/** The date or instant written, or null when it is malformed, not a real day, or out of range. */
export function parseIsoDate(raw: string): IsoDate | null {
  if (typeof raw !== "string" || raw.length > 40) return null;
  const m = PATTERN.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, frac, offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hh === undefined) return { kind: "date", day: `${y}-${mo}-${d}`, instant: utc(year, month, day) };

  const [h, min, sec] = [Number(hh), Number(mi), Number(ss ?? 0)];
  if (h > 23 || min > 59 || sec > 59) return null;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  let offsetMinutes = 0;
  if (offset && offset.toUpperCase() !== "Z") {
    const digits = offset.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (offset[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const instant = new Date(utc(year, month, day, h, min, sec, ms).getTime() - offsetMinutes * 60_000);
  const y2 = instant.getUTCFullYear();
  if (y2 < MIN_YEAR || y2 > MAX_YEAR) return null;
  return { kind: "date-time", instant };
}
