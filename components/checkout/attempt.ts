"use client";

const KEPT = /^[A-Za-z0-9_-]{22,64}$/;
const made = new Map<string, string>();

/** The browser's stores in the order they are tried: this browser's, then the tab's. */
function stores(): Storage[] {
  const out: Storage[] = [];
  for (const get of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      const st = get();
      if (st) out.push(st);
    } catch {
      // refused (private modes, storage off)
    }
  }
  return out;
}

/**
 * This browser's attempt key for a payment link: random, kept in localStorage so a Reload, or the
 * link opened again in another tab (from the chat it was sent in), keeps it; sent with every tap. The
 * server gives a PIX or boleto asked again with it for the same payer the charge already made, and
 * only to this browser: no one else knows the key. Where localStorage is refused, the tab's
 * sessionStorage keeps it; with neither, it lasts as long as the page.
 */
export function linkAttempt(linkSecureId: string): string {
  const name = `arara:attempt:${linkSecureId}`;
  const kept = stores();
  const found = keptAttempt(linkSecureId);
  if (found) return found;
  let key = made.get(name);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    made.set(name, key);
  }
  for (const st of kept) {
    try {
      st.setItem(name, key);
      break;
    } catch {
      // full or refused: the next store, else kept for the page only
    }
  }
  return key;
}

/** The attempt key this browser already keeps for a link, or null (none is made here). */
export function keptAttempt(linkSecureId: string): string | null {
  const name = `arara:attempt:${linkSecureId}`;
  for (const st of stores()) {
    try {
      const key = st.getItem(name);
      if (key && KEPT.test(key)) return key;
    } catch {
      // unreadable: the next store
    }
  }
  return made.get(name) ?? null;
}
