/**
 * A merchant's brand on the hosted checkout: the colour must keep white text readable (buttons,
 * the header's mark) and coloured text readable on white (links, secondary buttons), so it has to
 * reach WCAG AA's 4.5:1 against white. Pure functions.
 */

export const DEFAULT_BRAND_COLOR = "#0f766e";
/** WCAG 2 AA for normal text. */
export const MIN_BRAND_CONTRAST = 4.5;

/** "#0F766E", "0f766e" or "#0f7" -> "#0f766e"; null when it is not a hex colour. */
export function normalizeHexColor(input: string): string | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(input.trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  return `#${hex.toLowerCase()}`;
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance of a "#rrggbb" colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two "#rrggbb" colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export type BrandColorCheck = { ok: true; color: string; ratio: number } | { ok: false; reason: "invalid" } | { ok: false; reason: "contrast"; ratio: number };

/** Whether a colour can be the checkout's brand colour (against white text and a white page). */
export function checkBrandColor(input: string): BrandColorCheck {
  const color = normalizeHexColor(input);
  if (!color) return { ok: false, reason: "invalid" };
  const ratio = contrastRatio(color, "#ffffff");
  return ratio >= MIN_BRAND_CONTRAST ? { ok: true, color, ratio } : { ok: false, reason: "contrast", ratio };
}

/** The colour the checkout uses: the merchant's when it passes, else the default (never unreadable). */
export function brandColorOrDefault(stored: string | null | undefined): string {
  if (!stored) return DEFAULT_BRAND_COLOR;
  const c = checkBrandColor(stored);
  return c.ok ? c.color : DEFAULT_BRAND_COLOR;
}

/** The same hue, darker by `amount` (0..1): the hover shade of buttons. */
export function darken(hex: string, amount = 0.15): string {
  return `#${channels(hex)
    .map((c) => Math.round(c * (1 - amount)).toString(16).padStart(2, "0"))
    .join("")}`;
}

export const LOGO_MAX_BYTES = 256 * 1024;
const LOGO_SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: "image/png", test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/webp", test: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
];

/**
 * The logo's type from its bytes (not from the name or the browser's word): PNG, JPEG or WebP.
 * SVG is refused: it can carry script, and the logo is served from the gateway's own origin.
 */
export function sniffLogoType(bytes: Buffer): string | null {
  return LOGO_SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}
