import { describe, expect, it } from "vitest";
import { inferPixKeyType, validatePixKey } from "@/lib/domain/pix/keys";

describe("validatePixKey with a type", () => {
  it.each([
    ["cpf", "111.444.777-35", "11144477735"],
    ["CPF", "11144477735", "11144477735"],
    ["cnpj", "11.222.333/0001-81", "11222333000181"],
    ["Cnpj", "12.abc.345/01de-35", "12ABC34501DE35"],
    ["email", " Fulano@Example.COM ", "fulano@example.com"],
    ["EMAIL", "pagamentos+pix@loja.com.br", "pagamentos+pix@loja.com.br"],
    ["phone", "+5511987654321", "+5511987654321"],
    ["phone", "+55 (11) 98765-4321", "+5511987654321"],
    ["phone", "11987654321", "+5511987654321"],
    ["phone", "(11) 98765-4321", "+5511987654321"],
    ["phone", "5511987654321", "+5511987654321"],
    ["phone", "1133334444", "+551133334444"],
    ["evp", "123E4567-E12B-12D1-A456-426655440000", "123e4567-e12b-12d1-a456-426655440000"],
  ])("%s %s is normalized to %s", (type, key, normalized) => {
    expect(validatePixKey(key, type)).toEqual({ ok: true, type: type.toLowerCase(), key: normalized });
  });

  it.each([
    ["cpf", "111.444.777-36"],
    ["cpf", "11111111111"],
    ["cpf", "1114447773"],
    ["cnpj", "11222333000182"],
    ["cnpj", "12ABC34501DE36"],
    ["email", "not-an-email"],
    ["email", "a@b@c.com"],
    ["email", "spaces in@example.com"],
    ["phone", "+1 415 555 0100"], // PIX phone keys are Brazilian
    ["phone", "+55 (01) 98765-4321"], // area codes have no zero
    ["phone", "987654321"],
    ["phone", "+0 11 98765-4321"],
    ["evp", "123e4567e12b12d1a456426655440000"],
    ["evp", "not-a-uuid"],
  ])("rejects %s %s with a message", (type, key) => {
    const result = validatePixKey(key, type);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeGreaterThan(10);
  });

  it("limits e-mail keys to 77 characters", () => {
    const at77 = `${"a".repeat(65)}@example.com`;
    expect(at77).toHaveLength(77);
    expect(validatePixKey(at77, "email").ok).toBe(true);
    expect(validatePixKey(`a${at77}`, "email")).toMatchObject({ ok: false, message: expect.stringContaining("77") });
  });

  it("rejects an unknown type and an empty key", () => {
    expect(validatePixKey("11144477735", "rg")).toMatchObject({ ok: false, message: expect.stringContaining("rg") });
    expect(validatePixKey("   ", "cpf").ok).toBe(false);
  });
});

describe("inferPixKeyType and validatePixKey without a type", () => {
  it.each([
    ["111.444.777-35", "cpf"],
    ["11144477735", "cpf"],
    ["11.222.333/0001-81", "cnpj"],
    ["12ABC34501DE35", "cnpj"],
    ["fulano@example.com", "email"],
    ["+5511987654321", "phone"],
    ["+55 (11) 98765-4321", "phone"],
    ["123e4567-e12b-12d1-a456-426655440000", "evp"],
  ])("infers %s as %s", (key, type) => {
    expect(inferPixKeyType(key)).toBe(type);
    expect(validatePixKey(key)).toMatchObject({ ok: true, type });
  });

  it("reads an 11-digit string as a CPF when its check digits hold, else as a phone", () => {
    expect(inferPixKeyType("11144477735")).toBe("cpf");
    expect(inferPixKeyType("11987654321")).toBe("phone");
    expect(validatePixKey("11987654321")).toEqual({ ok: true, type: "phone", key: "+5511987654321" });
  });

  it("returns null for what is no key at all", () => {
    expect(inferPixKeyType("")).toBeNull();
    expect(inferPixKeyType("hello")).toBeNull();
    expect(inferPixKeyType("12345")).toBeNull();
    expect(validatePixKey("hello").ok).toBe(false);
  });
});
