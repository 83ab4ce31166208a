/**
 * Interleaved 2 of 5 (ITF), the symbology FEBRABAN prescribes for the boleto's 44-digit barcode.
 * Digits go in pairs: the first of a pair is drawn in the bars, the second in the spaces between
 * them, each as five elements of which two are wide. Start is narrow bar, space, bar, space; stop
 * is wide bar, narrow space, narrow bar. Widths are in narrow units; FEBRABAN's wide-to-narrow
 * ratio is 3:1 (bank scanners accept 2.25 to 3).
 */

// 1 = wide, 0 = narrow; the standard weights 1-2-4-7-0 table.
const PATTERNS: readonly string[] = [
  "00110", // 0
  "10001", // 1
  "01001", // 2
  "11000", // 3
  "00101", // 4
  "10100", // 5
  "01100", // 6
  "00011", // 7
  "10010", // 8
  "01010", // 9
];

export type Itf = {
  /** Black bars: left edge and width, in narrow units (quiet zones included). */
  bars: { x: number; w: number }[];
  /** Total width in narrow units. */
  width: number;
};

export function encodeInterleaved2of5(digits: string, opts: { wide?: number; quietZone?: number } = {}): Itf {
  if (!/^\d+$/.test(digits) || digits.length % 2 !== 0) {
    throw new RangeError(`Interleaved 2 of 5 encodes an even number of digits, got "${digits}"`);
  }
  const wide = opts.wide ?? 3;
  const quiet = opts.quietZone ?? 10;
  // Alternating element widths, starting with a bar.
  const elements: number[] = [1, 1, 1, 1];
  for (let i = 0; i < digits.length; i += 2) {
    const bars = PATTERNS[Number(digits[i])];
    const spaces = PATTERNS[Number(digits[i + 1])];
    for (let k = 0; k < 5; k++) {
      elements.push(bars[k] === "1" ? wide : 1, spaces[k] === "1" ? wide : 1);
    }
  }
  elements.push(wide, 1, 1);

  const bars: Itf["bars"] = [];
  let x = quiet;
  elements.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ x, w });
    x += w;
  });
  return { bars, width: x + quiet };
}

/** SVG path data ("M x 0 h w v h h -w z" per bar) for a barcode `height` units tall. */
export function itfPath(itf: Itf, height: number): string {
  return itf.bars.map((b) => `M${b.x} 0h${b.w}v${height}h${-b.w}z`).join("");
}
