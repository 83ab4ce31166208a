import { describe, expect, it } from "vitest";
import { crc16ccitt } from "@/lib/domain/pix/crc16";

const STATIC =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
const DYNAMIC =
  "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";

describe("crc16ccitt (CRC-16/CCITT-FALSE)", () => {
  it("gives the catalogue check value 29B1 for 123456789", () => {
    expect(crc16ccitt("123456789")).toBe("29B1");
  });

  it("matches the Banco Central static example (1D3D)", () => {
    expect(crc16ccitt(STATIC)).toBe("1D3D");
  });

  it("matches the dynamic example (7EC0) and the one with an amount (1520)", () => {
    expect(crc16ccitt(DYNAMIC)).toBe("7EC0");
    expect(crc16ccitt(DYNAMIC.replace("5303986", "53039865406123.45"))).toBe("1520");
  });

  it("is 4 uppercase hex digits, zero-padded (init 0xFFFF over no bytes)", () => {
    expect(crc16ccitt("")).toBe("FFFF");
    for (const s of ["a", "PIX", STATIC]) expect(crc16ccitt(s)).toMatch(/^[0-9A-F]{4}$/);
  });
});
