/**
 * What merchants type as an amount in reais: "1.234,56", "1234,56", "1234.56", "R$ 50", "50".
 * Returns centavos, or null when it is not an amount. A single dot followed by exactly two digits
 * is read as the decimal point ("1234.56"); otherwise dots group thousands ("1.234").
 */
export function parseReais(input: string): number | null {
  let s = input.replace(/R\$/i, "").replace(/\s/g, "");
  if (s === "" || !/^[\d.,]+$/.test(s)) return null;
  if (s.includes(",")) {
    if ((s.match(/,/g) ?? []).length > 1) return null;
    const [int, frac] = s.split(",");
    if (!/^\d{1,3}(\.\d{3})*$|^\d+$/.test(int) || !/^\d{0,2}$/.test(frac)) return null;
    s = `${int.replace(/\./g, "")}.${frac.padEnd(2, "0")}`;
  } else if (/^\d+\.\d{1,2}$/.test(s) && !/^\d{1,3}\.\d{3}$/.test(s)) {
    // "1234.5" / "10.50": decimal point
  } else if (/^\d{1,3}(\.\d{3})+$/.test(s)) {
    s = s.replace(/\./g, "");
  } else if (!/^\d+$/.test(s)) {
    return null;
  }
  const [int, frac = ""] = s.split(".");
  const cents = Number(int) * 100 + Number(frac.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Centavos back to the input format: 123456 -> "1.234,56". */
export function reaisInput(cents: number): string {
  const int = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${int},${String(cents % 100).padStart(2, "0")}`;
}
