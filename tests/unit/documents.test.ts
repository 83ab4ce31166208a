import { describe, expect, it } from "vitest";
import {
  detectDocumentType,
  isValidCnpj,
  isValidCpf,
  isValidDocument,
  normalizeDocument,
} from "@/lib/domain/documents";

describe("normalizeDocument", () => {
  it("strips dots, dashes, slashes and spaces and uppercases", () => {
    expect(normalizeDocument("111.444.777-35")).toBe("11144477735");
    expect(normalizeDocument(" 12.abc.345/01de-35 ")).toBe("12ABC34501DE35");
  });
});

describe("isValidCpf", () => {
  it("accepts the vector 111.444.777-35, with and without punctuation", () => {
    expect(isValidCpf("111.444.777-35")).toBe(true);
    expect(isValidCpf("11144477735")).toBe(true);
  });

  it("rejects a wrong first or second check digit", () => {
    expect(isValidCpf("11144477745")).toBe(false);
    expect(isValidCpf("11144477736")).toBe(false);
  });

  it("rejects all-same-digit sequences even though their check digits add up", () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
  });

  it("rejects wrong lengths and letters", () => {
    expect(isValidCpf("1114447773")).toBe(false);
    expect(isValidCpf("111444777355")).toBe(false);
    expect(isValidCpf("1114447773A")).toBe(false);
  });
});

describe("isValidCnpj", () => {
  it("accepts the numeric vector 11.222.333/0001-81", () => {
    expect(isValidCnpj("11.222.333/0001-81")).toBe(true);
    expect(isValidCnpj("11222333000181")).toBe(true);
  });

  it("accepts the alphanumeric CNPJ vectors (characters worth ASCII - 48)", () => {
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true);
    expect(isValidCnpj("Q0SLFMBD7VX439")).toBe(true);
    expect(isValidCnpj("12abc34501de35")).toBe(true);
  });

  it("rejects the invalid alphanumeric vector 12ABC34501DE36", () => {
    expect(isValidCnpj("12ABC34501DE36")).toBe(false);
  });

  it("rejects wrong check digits, letters in the check digits and all-same sequences", () => {
    expect(isValidCnpj("11222333000182")).toBe(false);
    expect(isValidCnpj("11222333000191")).toBe(false);
    expect(isValidCnpj("12ABC34501DEA5")).toBe(false);
    expect(isValidCnpj("00000000000000")).toBe(false);
    expect(isValidCnpj("11111111111111")).toBe(false);
  });
});

describe("detectDocumentType", () => {
  it("detects by shape", () => {
    expect(detectDocumentType("111.444.777-35")).toBe("cpf");
    expect(detectDocumentType("11.222.333/0001-81")).toBe("cnpj");
    expect(detectDocumentType("12.ABC.345/01DE-35")).toBe("cnpj");
    expect(detectDocumentType("123")).toBeNull();
    expect(detectDocumentType("1114447773X")).toBeNull();
  });
});

describe("isValidDocument", () => {
  it("checks the document against the given type, in any case", () => {
    expect(isValidDocument("cpf", "111.444.777-35")).toBe(true);
    expect(isValidDocument("CPF", "111.444.777-35")).toBe(true);
    expect(isValidDocument("Cnpj", "11.222.333/0001-81")).toBe(true);
    expect(isValidDocument("cnpj", "111.444.777-35")).toBe(false);
    expect(isValidDocument("cpf", "11.222.333/0001-81")).toBe(false);
    expect(isValidDocument("rg", "111.444.777-35")).toBe(false);
  });
});
