import { describe, expect, it } from "vitest";
import { BrCodeError, buildStaticBrCode, parseBrCode, parseTlv } from "@/lib/domain/pix/brcode";
import { crc16ccitt } from "@/lib/domain/pix/crc16";

const STATIC_EXAMPLE =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const DYNAMIC_EXAMPLE =
  "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63047EC0";
const DYNAMIC_WITH_AMOUNT =
  "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca2552040000530398654061" +
  "23.455802BR5913Fulano de Tal6008BRASILIA62070503***63041520";

const EVP = "123e4567-e12b-12d1-a456-426655440000";

describe("parseBrCode on the vectors", () => {
  it("reads the Banco Central static example", () => {
    const p = parseBrCode(STATIC_EXAMPLE);
    expect(p.crcValid).toBe(true);
    expect(p.key).toBe(EVP);
    expect(p.url).toBeNull();
    expect(p.merchantName).toBe("Fulano de Tal");
    expect(p.merchantCity).toBe("BRASILIA");
    expect(p.txid).toBe("***");
    expect(p.amount).toBeUndefined();
    expect(p.fields).toMatchObject({ "00": "01", "52": "0000", "53": "986", "58": "BR", "63": "1D3D" });
    expect(p.merchantAccount["00"]).toBe("br.gov.bcb.pix");
  });

  it("reads the dynamic example's location URL", () => {
    const p = parseBrCode(DYNAMIC_EXAMPLE);
    expect(p.crcValid).toBe(true);
    expect(p.fields["01"]).toBe("12");
    expect(p.key).toBeNull();
    expect(p.url).toBe("pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25");
    expect(p.amount).toBeUndefined();
  });

  it("reads the amount 123.45 as 12345 centavos with CRC 1520", () => {
    const p = parseBrCode(DYNAMIC_WITH_AMOUNT);
    expect(p.crcValid).toBe(true);
    expect(p.fields["54"]).toBe("123.45");
    expect(p.amount).toBe(12345);
    expect(p.fields["63"]).toBe("1520");
  });

  it("flags a payload whose content changed after the CRC was computed", () => {
    const tampered = STATIC_EXAMPLE.replace("Fulano de Tal", "Fulano de Tax");
    expect(parseBrCode(tampered).crcValid).toBe(false);
    expect(parseBrCode(STATIC_EXAMPLE.replace("1D3D", "1D3E")).crcValid).toBe(false);
  });

  it("throws on malformed payloads", () => {
    expect(() => parseBrCode("")).toThrow(BrCodeError);
    expect(() => parseBrCode("hello")).toThrow(BrCodeError);
    expect(() => parseBrCode(STATIC_EXAMPLE.slice(0, -10))).toThrow(BrCodeError);
    expect(() => parseBrCode(STATIC_EXAMPLE.replace("000201", "000202"))).toThrow(BrCodeError);
    const noPixAccount = STATIC_EXAMPLE.replace("br.gov.bcb.pix", "br.gov.bcb.xyz");
    expect(() => parseBrCode(noPixAccount)).toThrow(/merchant account/);
  });
});

describe("buildStaticBrCode", () => {
  it("reproduces the Banco Central static example byte for byte", () => {
    const code = buildStaticBrCode({ key: EVP, merchantName: "Fulano de Tal", merchantCity: "BRASILIA", txid: "***" });
    expect(code).toBe(STATIC_EXAMPLE);
  });

  it("puts the amount in field 54 right after the currency, as the dynamic vector does", () => {
    const code = buildStaticBrCode({
      key: EVP,
      merchantName: "Fulano de Tal",
      merchantCity: "BRASILIA",
      amount: 12345,
      txid: "***",
    });
    expect(code).toContain("53039865406123.455802BR");
    expect(code).toMatch(/^000201/);
    expect(code.slice(-8, -4)).toBe("6304");
    expect(code.slice(-4)).toBe(crc16ccitt(code.slice(0, -4)));
  });

  it.each([
    [1, "0.01"],
    [100, "1.00"],
    [99999, "999.99"],
    [100000000, "1000000.00"],
  ])("formats %i centavos as %s", (amount, text) => {
    const code = buildStaticBrCode({ key: EVP, merchantName: "Loja", merchantCity: "Recife", amount, txid: "T1" });
    expect(parseBrCode(code).fields["54"]).toBe(text);
  });

  it("round-trips amount, txid, key, description and a valid CRC", () => {
    const code = buildStaticBrCode({
      key: "+55 (11) 98765-4321",
      merchantName: "Padaria São João",
      merchantCity: "São Paulo",
      amount: 4990,
      txid: "0000000000000042a1b2c3d4e",
      description: "Pedido 42",
    });
    const p = parseBrCode(code);
    expect(p.crcValid).toBe(true);
    expect(p.amount).toBe(4990);
    expect(p.txid).toBe("0000000000000042a1b2c3d4e");
    expect(p.key).toBe("+5511987654321");
    expect(p.description).toBe("Pedido 42");
    expect(p.merchantName).toBe("Padaria Sao Joao");
    expect(p.merchantCity).toBe("Sao Paulo");
    expect(p.fields["01"]).toBeUndefined();
  });

  it("normalizes keys to their DICT form (e-mail lowercase, CPF digits)", () => {
    const base = { merchantName: "Loja", merchantCity: "Recife", amount: 100, txid: "ABC" };
    expect(parseBrCode(buildStaticBrCode({ ...base, key: "Pagamentos@Loja.COM.br" })).key).toBe("pagamentos@loja.com.br");
    expect(parseBrCode(buildStaticBrCode({ ...base, key: "111.444.777-35" })).key).toBe("11144477735");
  });

  it("cuts the name to 25 and the city to 15 ASCII characters", () => {
    const p = parseBrCode(
      buildStaticBrCode({
        key: EVP,
        merchantName: "Comércio de Alimentos Ação Ltda",
        merchantCity: "São José dos Campos",
        amount: 100,
        txid: "X",
      }),
    );
    expect(p.merchantName).toBe("Comercio de Alimentos Aca");
    expect(p.merchantName).toHaveLength(25);
    expect(p.merchantCity).toBe("Sao Jose dos Ca");
    expect(p.merchantCity).toHaveLength(15);
    expect(p.crcValid).toBe(true);
  });

  it("keeps field 26 within 99 characters by shortening the description", () => {
    const email = `${"a".repeat(60)}@example.com`; // 72 characters
    const code = buildStaticBrCode({
      key: email,
      merchantName: "Loja",
      merchantCity: "Recife",
      amount: 100,
      txid: "X",
      description: "Uma descrição bem longa que não cabe no campo",
    });
    const p = parseBrCode(code);
    expect(p.fields["26"].length).toBeLessThanOrEqual(99);
    expect(p.key).toBe(email);
    expect(p.crcValid).toBe(true);
    // 99 - (4 + 14) - (4 + 72) - 4 = 1 character of description is left
    expect(p.description).toBe("U");
  });

  it("refuses an invalid key, txid or amount", () => {
    const base = { key: EVP, merchantName: "Loja", merchantCity: "Recife", amount: 100, txid: "ABC" };
    expect(() => buildStaticBrCode({ ...base, key: "not a key" })).toThrow(BrCodeError);
    expect(() => buildStaticBrCode({ ...base, txid: "has-dash" })).toThrow(BrCodeError);
    expect(() => buildStaticBrCode({ ...base, txid: "A".repeat(26) })).toThrow(BrCodeError);
    expect(() => buildStaticBrCode({ ...base, txid: "" })).toThrow(BrCodeError);
    expect(() => buildStaticBrCode({ ...base, amount: 0 })).toThrow(BrCodeError);
    expect(() => buildStaticBrCode({ ...base, amount: 10.5 })).toThrow(BrCodeError);
  });

  it("accepts a 25-character txid", () => {
    const txid = "A".repeat(25);
    expect(parseBrCode(buildStaticBrCode({ key: EVP, merchantName: "L", merchantCity: "R", amount: 1, txid })).txid).toBe(txid);
  });
});

describe("parseTlv", () => {
  it("splits ID, length and value", () => {
    expect(parseTlv("0002010503***")).toEqual([
      { id: "00", value: "01" },
      { id: "05", value: "***" },
    ]);
  });

  it("throws when a length runs past the end", () => {
    expect(() => parseTlv("0005abc")).toThrow(BrCodeError);
  });
});
