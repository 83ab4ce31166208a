import { describe, expect, it } from "vitest";
import { parsePixKey } from "@/lib/domain/pix/keys";

describe("parsePixKey with a type", () => {
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
    ["evp", "123E4567-E12B-12D1-A456-426655440000", "123e4567-e12b-12d1-a456-426655440000"],
  ])("%s %s is normalized to %s", (type, key, normalized) => {
    expect(parsePixKey(key, type)).toEqual({ ok: true, type: type.toLowerCase(), key: normalized });
  });

  it.each([
    ["cpf", "111.444.777-36", "invalid_cpf"],
    ["cpf", "11111111111", "invalid_cpf"],
    ["cpf", "1114447773", "invalid_cpf"],
    ["cnpj", "11222333000182", "invalid_cnpj"],
    ["cnpj", "12ABC34501DE36", "invalid_cnpj"],
    ["email", "not-an-email", "invalid_email"],
    ["email", "a@b@c.com", "invalid_email"],
    ["email", "spaces in@example.com", "invalid_email"],
    ["phone", "+1 415 555 0100", "invalid_phone"], // PIX phone keys are Brazilian
    ["phone", "+55 (01) 98765-4321", "invalid_phone"], // area codes have no zero
    ["phone", "987654321", "invalid_phone"],
    ["phone", "+0 11 98765-4321", "invalid_phone"],
    ["phone", "111.444.777-35", "document_as_phone"], // a CPF pasted into a phone field
    ["evp", "123e4567e12b12d1a456426655440000", "invalid_evp"],
    ["evp", "not-a-uuid", "invalid_evp"],
  ])("rejects %s %s (%s) with a message", (type, key, problem) => {
    const result = parsePixKey(key, type);
    expect(result).toMatchObject({ ok: false, problem });
    if (!result.ok) expect(result.message.length).toBeGreaterThan(10);
  });

  it("limits e-mail keys to 77 characters", () => {
    const at77 = `${"a".repeat(65)}@example.com`;
    expect(at77).toHaveLength(77);
    expect(parsePixKey(at77, "email").ok).toBe(true);
    expect(parsePixKey(`a${at77}`, "email")).toMatchObject({ ok: false, problem: "email_too_long", message: expect.stringContaining("77") });
  });

  it("rejects an unknown type and an empty key", () => {
    expect(parsePixKey("11144477735", "rg")).toMatchObject({ ok: false, problem: "unknown_type", message: expect.stringContaining("rg") });
    expect(parsePixKey("   ", "cpf")).toMatchObject({ ok: false, problem: "empty" });
  });
});

describe("parsePixKey without a type: the shape decides", () => {
  it.each([
    ["111.444.777-35", "cpf", "11144477735"],
    ["11144477735", "cpf", "11144477735"],
    ["11.222.333/0001-81", "cnpj", "11222333000181"],
    ["11222333000181", "cnpj", "11222333000181"],
    ["12ABC34501DE35", "cnpj", "12ABC34501DE35"],
    ["fulano@example.com", "email", "fulano@example.com"],
    ["+5511987654321", "phone", "+5511987654321"],
    ["+55 (11) 98765-4321", "phone", "+5511987654321"],
    ["(11) 98765-4321", "phone", "+5511987654321"],
    ["11 98765-4321", "phone", "+5511987654321"],
    ["5511987654321", "phone", "+5511987654321"],
    ["123e4567-e12b-12d1-a456-426655440000", "evp", "123e4567-e12b-12d1-a456-426655440000"],
  ])("reads %s as %s %s", (key, type, normalized) => {
    expect(parsePixKey(key)).toEqual({ ok: true, type, key: normalized });
  });

  it.each([
    // Written as a CPF (punctuated, partly punctuated or 11 bare digits) with wrong check digits.
    ["111.444.777-30", "invalid_cpf"],
    ["11144477730", "invalid_cpf"],
    ["111444777-30", "invalid_cpf"],
    ["111.444.77730", "invalid_cpf"],
    // 11 bare digits that would spell a mobile number are still a CPF by shape: +55 makes a phone.
    ["11987654321", "invalid_cpf"],
    // Written as a CNPJ (punctuated or 14 bare digits) with wrong check digits.
    ["11.222.333/0001-82", "invalid_cnpj"],
    ["11222333000182", "invalid_cnpj"],
  ])("refuses the mistyped document %s (%s), never reading it as a phone, and says how to write a phone", (key, problem) => {
    const result = parsePixKey(key);
    expect(result).toMatchObject({ ok: false, problem });
    if (!result.ok) expect(result.message).toContain("+55 11 98765-4321");
  });

  it.each([
    // A valid CPF (119.444.777-56) written with other separators: its digits also spell the mobile
    // +55 11 94447-7756. Read as a phone, the money would go to a stranger.
    "119 444 777 56",
    "119.444.777 56",
    "119.444.777.56",
    "119-444-777-56",
    // The same with wrong check digits.
    "119 444 777 57",
    // A CNPJ that lost its leading zero (05.511.912/0001-41 sent as a number): 13 digits after 55.
    "5 511 912 000 141",
  ])("refuses %s, whose digits may be a CPF or a phone, instead of guessing a phone", (key) => {
    const result = parsePixKey(key);
    expect(result).toMatchObject({ ok: false, problem: "ambiguous_digits" });
    if (!result.ok) expect(result.message).toMatch(/pixKeyType/);
    // With the type said, the merchant's word decides.
    expect(parsePixKey(key, "cpf")).toMatchObject(key.endsWith("56") ? { ok: true, type: "cpf", key: "11944477756" } : { ok: false });
  });

  it("returns not_a_key for what is no key at all", () => {
    for (const k of ["hello", "12345", "chave qualquer"]) expect(parsePixKey(k)).toMatchObject({ ok: false, problem: "not_a_key" });
    expect(parsePixKey("")).toMatchObject({ ok: false, problem: "empty" });
  });
});

describe("a phone key follows one rule, with or without the type", () => {
  it.each(["+551133334444", "+55 (11) 3333-4444", "1133334444", "(11) 3333-4444", "551133334444", "+5511144477730", "+5521812345678"])(
    "refuses %s (not a mobile number) both ways, for the same reason",
    (key) => {
      const typed = parsePixKey(key, "phone");
      const guessed = parsePixKey(key);
      expect(typed).toMatchObject({ ok: false, problem: "invalid_phone" });
      expect(guessed).toEqual(typed);
    },
  );

  it.each(["+5511987654321", "+55 21 99999-0000", "+55 (85) 91234-5678", "55 11 98765-4321", "(11) 9 8765-4321", "11 9 8765 4321", "11.98765.4321", "55 (11) 98765-4321"])("accepts the mobile %s both ways, as the same key", (key) => {
    const typed = parsePixKey(key, "phone");
    expect(typed).toMatchObject({ ok: true, type: "phone" });
    expect(parsePixKey(key)).toEqual(typed);
  });
});

describe("a key refused for the type sent says what the key looks like, and hints at phones only for digits", () => {
  it.each([
    ["maria@example.com", "cpf", "invalid_cpf", "looks like an e-mail address, but pixKeyType is cpf"],
    ["maria@example.com", "CNPJ", "invalid_cnpj", "looks like an e-mail address, but pixKeyType is cnpj"],
    ["123e4567-e12b-12d1-a456-426655440000", "cpf", "invalid_cpf", "looks like a random key (EVP), but pixKeyType is cpf"],
  ])("%s sent as %s", (key, type, problem, says) => {
    const result = parsePixKey(key, type);
    expect(result).toMatchObject({ ok: false, problem });
    if (!result.ok) {
      expect(result.message).toContain(says);
      expect(result.message).not.toMatch(/phone/i);
    }
  });

  it("a word that is no document is simply not a valid CPF, without the phone hint", () => {
    const result = parsePixKey("loja-da-maria", "cpf");
    expect(result).toMatchObject({ ok: false, problem: "invalid_cpf", message: "The PIX key is not a valid CPF (11 digits whose check digits hold)." });
  });

  it("digits that could be a phone keep the hint", () => {
    const result = parsePixKey("(11) 98765-4321", "cpf");
    expect(result).toMatchObject({ ok: false, problem: "invalid_cpf" });
    if (!result.ok) expect(result.message).toContain("+55 11 98765-4321");
  });
});
