/**
 * CSV as spreadsheet programs in Brazil open it: ";" between fields (the comma is the decimal
 * separator), CRLF line ends, a UTF-8 byte-order mark so accents survive Excel. Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe, and text
 * holding a comma is quoted too: a program that splits on commas (an en-US Excel, an importer) keeps
 * it one cell instead of starting a new one, perhaps a formula, after the comma. Numbers with the
 * decimal comma are left unquoted, as pt-BR spreadsheets read them as numbers.
 */
export function csvField(value: string | number | null | undefined, opts: { text?: boolean } = {}): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (opts.text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[";\r\n]/.test(s) || (opts.text && s.includes(",")) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: string[]): string {
  return `${fields.join(";")}\r\n`;
}

export const CSV_BOM = "\uFEFF";

/** 123456 -> "1234,56"; -500 -> "-5,00" (no thousands separator: spreadsheets parse it as a number). */
export function decimalComma(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

const csvDateFmt = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/**
 * "23/11/2026 05:05:54" in Brasília time: the form a pt-BR spreadsheet reads as a date and time.
 * (Intl's own pt-BR form puts a comma after the date, which makes the cell text.)
 */
export function csvDateTime(d: Date | string): string {
  const parts = Object.fromEntries(csvDateFmt.formatToParts(typeof d === "string" ? new Date(d) : d).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}
