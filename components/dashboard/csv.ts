/**
 * CSV as spreadsheet programs in Brazil open it: ";" between fields (the comma is the decimal
 * separator), CRLF line ends, a UTF-8 byte-order mark so accents survive Excel. Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe.
 */
export function csvField(value: string | number | null | undefined, opts: { text?: boolean } = {}): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (opts.text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[";\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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
