"use client";

const KEPT = /^[A-Za-z0-9_-]{22,64}$/;
const made = new Map<string, string>();

/**
 * This tab's attempt key for a payment link: random, kept in sessionStorage so a Reload keeps it,
 * sent with every tap. The server gives a PIX or boleto asked again with it (the answer lost, a
 * double tap, Reload) the charge already made, and only to this tab: no one else knows the key.
 * Without sessionStorage (private modes that refuse it) it lasts as long as the page.
 */
export function linkAttempt(linkSecureId: string): string {
  const name = `arara:attempt:${linkSecureId}`;
  try {
    const kept = window.sessionStorage.getItem(name);
    if (kept && KEPT.test(kept)) return kept;
  } catch {
    // no sessionStorage: the page's own below
  }
  let key = made.get(name);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    made.set(name, key);
  }
  try {
    window.sessionStorage.setItem(name, key);
  } catch {
    // kept for the page only
  }
  return key;
}
