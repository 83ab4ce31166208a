/**
 * Brazilian postal addresses as printed on a boleto (the beneficiary's and the payer's): street and
 * number, complement, neighbourhood (bairro), city / UF and CEP. Every part is optional; what is
 * missing is left out.
 */

export type PostalAddress = {
  street?: string | null;
  streetNumber?: string | null;
  complement?: string | null;
  neighborhood?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  country?: string | null;
};

export const ADDRESS_FIELDS = ["street", "streetNumber", "complement", "neighborhood", "city", "state", "zipCode"] as const;

/** The 26 states and the Federal District (unidades federativas). */
export const BRAZIL_STATES = [
  "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
  "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
] as const;

/** "01310100", "01310-100", "01.310-100" -> "01310100"; null when it is not 8 digits. */
export function normalizeCep(s: string): string | null {
  const digits = s.replace(/[\s.-]/g, "");
  return /^\d{8}$/.test(digits) ? digits : null;
}

/** "01310100" -> "01310-100"; anything else as is. */
export function formatCep(s: string): string {
  return /^\d{8}$/.test(s) ? `${s.slice(0, 5)}-${s.slice(5)}` : s;
}

const part = (s: string | null | undefined) => (s ?? "").trim();

/**
 * Two lines as a slip prints them: "Av. Paulista, 1000 - Conj. 12" and
 * "Bela Vista - São Paulo/SP - CEP 01310-100". Empty lines are dropped: [] for no address at all.
 */
export function addressLines(a: PostalAddress | null | undefined): string[] {
  if (!a) return [];
  const first = [
    [part(a.street), part(a.streetNumber)].filter(Boolean).join(", "),
    part(a.complement),
  ]
    .filter(Boolean)
    .join(" - ");
  const cityState = [part(a.city), part(a.state).toUpperCase()].filter(Boolean).join("/");
  const zip = part(a.zipCode);
  const second = [part(a.neighborhood), cityState, zip ? `CEP ${formatCep(zip.replace(/[\s.-]/g, ""))}` : ""].filter(Boolean).join(" - ");
  return [first, second].filter(Boolean);
}
