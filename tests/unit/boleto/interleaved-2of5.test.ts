import { describe, expect, it } from "vitest";
import { encodeInterleaved2of5, itfPath } from "@/lib/domain/boleto/interleaved-2of5";

/** Reads the symbol back from its bars, as a scanner would: the independent check of the encoder. */
function decode(bars: { x: number; w: number }[], wide: number): string {
  // Rebuild the element widths (bar, space, bar, space...) from the bars' positions.
  const widths: number[] = [];
  bars.forEach((b, i) => {
    widths.push(b.w);
    if (i < bars.length - 1) widths.push(bars[i + 1].x - (b.x + b.w));
  });
  expect(widths.slice(0, 4)).toEqual([1, 1, 1, 1]);
  expect(widths.slice(-3)).toEqual([wide, 1, 1]);
  const body = widths.slice(4, -3);
  const WEIGHTS = [1, 2, 4, 7, 0];
  const digit = (five: number[]) => {
    const wides: number[] = five.map((w) => (w === wide ? 1 : 0));
    expect(wides.reduce((a, b) => a + b, 0)).toBe(2);
    const v = wides.reduce((s, f, i) => s + f * WEIGHTS[i], 0);
    return v === 11 ? 0 : v;
  };
  let out = "";
  for (let i = 0; i < body.length; i += 10) {
    const pair = body.slice(i, i + 10);
    out += digit(pair.filter((_, k) => k % 2 === 0));
    out += digit(pair.filter((_, k) => k % 2 === 1));
  }
  return out;
}

describe("Interleaved 2 of 5", () => {
  it("round-trips every digit pair", () => {
    for (let a = 0; a < 10; a++) {
      for (let b = 0; b < 10; b++) {
        const s = `${a}${b}`;
        expect(decode(encodeInterleaved2of5(s).bars, 3)).toBe(s);
      }
    }
  });

  it("encodes a 44-digit boleto barcode with the 3:1 ratio and quiet zones", () => {
    const bc = "00191167700000123450000001234567890123456717";
    const itf = encodeInterleaved2of5(bc);
    expect(decode(itf.bars, 3)).toBe(bc);
    // Start 4 + 22 pairs of 2 wide + 3 narrow (x2) + stop (wide 3 + 2) = 4 + 22*18 + 5, plus 2 quiet zones of 10.
    expect(itf.width).toBe(10 + 4 + 22 * 18 + 5 + 10);
    expect(itf.bars[0].x).toBe(10);
  });

  it("honours another wide ratio", () => {
    expect(decode(encodeInterleaved2of5("1234", { wide: 2 }).bars, 2)).toBe("1234");
  });

  it("refuses an odd count or non-digits", () => {
    expect(() => encodeInterleaved2of5("123")).toThrow(RangeError);
    expect(() => encodeInterleaved2of5("12a4")).toThrow(RangeError);
  });

  it("draws one closed rectangle per bar", () => {
    const itf = encodeInterleaved2of5("00");
    const d = itfPath(itf, 50);
    expect(d.match(/z/g)?.length).toBe(itf.bars.length);
    expect(d.startsWith("M10 0h1v50h-1z")).toBe(true);
  });
});
