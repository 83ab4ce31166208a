/**
 * The hosted checkout's languages and how a payer's choice is read (`?lang=`, the cookie): one rule
 * for the page (components/checkout/i18n.ts) and for the proxy that tells the root layout its
 * `<html lang>` (lib/security/checkout-headers.ts).
 */
export type Locale = "pt" | "en";
export const LOCALES: readonly Locale[] = ["pt", "en"];
export const LANG_COOKIE = "checkout_lang";

export function parseLocale(v: string | null | undefined): Locale | null {
  if (!v) return null;
  const s = v.toLowerCase();
  if (s === "en" || s.startsWith("en-")) return "en";
  if (s === "pt" || s.startsWith("pt-")) return "pt";
  return null;
}
