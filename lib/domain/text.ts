/**
 * Folding free text (names, cities, descriptions) to plain printable ASCII for artefacts that only
 * carry ASCII (the BR Code) or whose font lacks a character (the boleto PDF).
 *
 * Order matters: compatibility normalisation (NFKC) first turns ligatures and full-width or circled
 * forms into the letters they stand for ("ﬁ" -> "fi", "ＡＢＣ" -> "ABC"); only then are accents
 * stripped ("São" -> "Sao"). What is still not ASCII is a letter or digit of another script, which
 * is transliterated ("商店" -> "ShangDian", "Магазин" -> "Magazin"), or a symbol, which is dropped.
 */
import anyAscii from "any-ascii";

const SPECIAL: Record<string, string> = {
  ß: "ss", æ: "ae", Æ: "AE", œ: "oe", Œ: "OE", ø: "o", Ø: "O", đ: "d", Đ: "D", ł: "l", Ł: "L",
};
// Letters, digits and the marks of scripts that write vowels as marks (Devanagari, Thai, Arabic).
const TRANSLITERATED = /[\p{L}\p{N}\p{M}]/u;
// The generic combining diacritics (acute, tilde, cedilla, ...) that accented Latin, Greek and
// Cyrillic letters decompose into; the marks of other scripts are letters' parts and stay.
const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/** "ﬁnance ＡＢＣ São" -> "finance ABC Sao": NFKC, then accents off. Other scripts are left as they are. */
export function stripAccents(s: string): string {
  return s
    .normalize("NFKC")
    .normalize("NFD")
    .replace(DIACRITICS, "")
    .replace(/[ßæÆœŒøØđĐłŁ]/g, (c) => SPECIAL[c] ?? c)
    .normalize("NFC");
}

/** One character (a code point) as ASCII: itself when it is ASCII, else its transliteration. */
export function transliterateChar(c: string): string {
  return /^[\x20-\x7e]$/.test(c) ? c : anyAscii(c);
}

function collapse(s: string): string {
  return s
    .replace(/\s/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
}

/**
 * Plain printable ASCII: ligatures and full-width forms resolved, accents stripped, letters and digits
 * of other scripts transliterated, symbols and emoji dropped, runs of spaces collapsed.
 * "ﬁnance ＡＢＣ" -> "finance ABC", "Café ☕ Bar" -> "Cafe Bar", "北京商店" -> "BeiJingShangDian".
 */
export function asciiFold(s: string): string {
  let out = "";
  for (const c of stripAccents(s)) {
    if (/^[\x20-\x7e]$/.test(c)) out += c;
    else if (/^\s$/.test(c)) out += " ";
    else if (TRANSLITERATED.test(c)) out += anyAscii(c).replace(/[^\x20-\x7e]/g, "");
  }
  return collapse(out);
}

/** True when the text has at least one ASCII letter or digit (something a reader can take as a name). */
export function hasAsciiLetterOrDigit(s: string): boolean {
  return /[A-Za-z0-9]/.test(s);
}
