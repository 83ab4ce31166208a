/**
 * Free text another system sent (a PSP's `motivo`, say), made fit to show: one line, no control or
 * format characters (no line breaks, no direction overrides, no zero-width joiners hiding text), runs
 * of spaces collapsed, at most `max` characters (an ellipsis marks a cut). Not an HTML escape: the
 * text stays what it said, and whatever renders it escapes it for its medium (React does; a CSV
 * writer quotes it).
 */
export function untrustedLine(text: string | null | undefined, max: number): string | null {
  if (text == null) return null;
  const line = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, " ").replace(/\s+/g, " ").trim();
  if (line === "") return null;
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** The API Pix's limit on a devolução's `motivo` (and on the texts of a pacs.004): 140 characters. */
export const PSP_MOTIVO_MAX = 140;
