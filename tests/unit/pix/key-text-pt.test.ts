/**
 * The dashboard's Portuguese for a refused PIX key (components/dashboard/pix-key-input.ts): a CPF or
 * CNPJ that fails its check is said for what the key looks like, the phone hint only for digits.
 */
import { describe, expect, it } from "vitest";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";

const text = (key: string, type: string) => pixKeyErrorText(checkPixKeyInput(key, type));

describe("pixKeyErrorText", () => {
  it("an e-mail or a random key with CPF or CNPJ chosen: names what it looks like and the type to choose, no phone hint", () => {
    expect(text("maria@example.com", "cpf")).toBe('Isto parece um e-mail, mas o tipo escolhido é CPF: escolha o tipo E-mail ou "Detectar automaticamente".');
    expect(text("123e4567-e89b-12d3-a456-426614174000", "cnpj")).toBe(
      'Isto parece uma chave aleatória, mas o tipo escolhido é CNPJ: escolha o tipo Chave aleatória ou "Detectar automaticamente".',
    );
    expect(text("maria@example.com", "cpf")).not.toMatch(/\+55/);
  });

  it("digits that fail the check keep the phone hint: they may be a phone meant as one", () => {
    expect(text("11987654321", "cpf")).toMatch(/^CPF inválido: confira os dígitos\. Se for um celular, escreva com \+55/);
    expect(text("111.444.777-00", "cpf")).toMatch(/\+55/);
  });

  it("anything else is a document mistyped, without the phone hint", () => {
    expect(text("abc", "cpf")).toBe("CPF inválido: confira os dígitos.");
    expect(text("loja centro", "cnpj")).toBe("CNPJ inválido: confira os dígitos.");
  });

  it("other problems and a valid key are as before", () => {
    expect(text("", "")).toBeNull();
    expect(text("111.444.777-35", "cpf")).toBeNull();
    expect(text("abc", "")).toMatch(/^Use CPF, CNPJ, e-mail/);
    expect(text("maria@", "")).toBe("E-mail inválido.");
  });
});
