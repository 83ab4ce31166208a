import { describe, expect, it } from "vitest";
import { validateCard, type CardInput } from "@/lib/domain/card/validate";

const NOW = new Date("2026-05-15T12:00:00Z");
const VALID: CardInput = {
  number: "4242424242424242",
  holderName: "FULANO DE TAL",
  expirationMonth: "12",
  expirationYear: "2030",
  cvv: "123",
};

function errorsOf(input: CardInput, now = NOW) {
  const result = validateCard(input, now);
  return result.ok ? [] : result.errors;
}

describe("validateCard", () => {
  it("returns the normalized card and its brand", () => {
    expect(validateCard(VALID, NOW)).toEqual({
      ok: true,
      card: {
        number: "4242424242424242",
        holderName: "FULANO DE TAL",
        expirationMonth: "12",
        expirationYear: "2030",
        cvv: "123",
        brand: "visa",
      },
    });
  });

  it("accepts numbers or strings, strips spaces and dashes, pads the month and widens a 2-digit year", () => {
    const result = validateCard(
      { number: "5067 7667-8388 8311", holderName: "  Maria   da Silva ", expirationMonth: 1, expirationYear: "30", cvv: 321 },
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      card: {
        number: "5067766783888311",
        holderName: "Maria da Silva",
        expirationMonth: "01",
        expirationYear: "2030",
        cvv: "321",
        brand: "elo",
      },
    });
    const asNumber = validateCard({ ...VALID, number: 4242424242424242, expirationYear: 2030 }, NOW);
    expect(asNumber.ok && asNumber.card.number).toBe("4242424242424242");
  });

  it("wants a 4-digit CVV for Amex and 3 digits otherwise", () => {
    expect(validateCard({ ...VALID, number: "378282246310005", cvv: "1234" }, NOW).ok).toBe(true);
    expect(errorsOf({ ...VALID, number: "378282246310005", cvv: "123" })).toEqual([
      { field: "cvv", message: expect.stringContaining("4 digits") },
    ]);
    expect(errorsOf({ ...VALID, cvv: "1234" })).toEqual([{ field: "cvv", message: expect.stringContaining("3 digits") }]);
    expect(errorsOf({ ...VALID, cvv: "12a" })).toEqual([{ field: "cvv", message: expect.any(String) }]);
    expect(errorsOf({ ...VALID, cvv: "" })).toEqual([{ field: "cvv", message: expect.any(String) }]);
  });

  it("rejects a number failing Luhn, an unknown brand or a wrong length", () => {
    expect(errorsOf({ ...VALID, number: "4242424242424241" })).toEqual([
      { field: "number", message: expect.stringContaining("check digit") },
    ]);
    // Passes Luhn, but 9 is no brand's prefix
    expect(errorsOf({ ...VALID, number: "9999999999999995" })).toEqual([
      { field: "number", message: expect.stringContaining("brand") },
    ]);
    // A 15-digit Visa-prefixed number that passes Luhn
    expect(errorsOf({ ...VALID, number: "424242424242424" })).toEqual([
      { field: "number", message: expect.stringContaining("length") },
    ]);
    expect(errorsOf({ ...VALID, number: "" })).toEqual([{ field: "number", message: expect.stringContaining("required") }]);
    expect(errorsOf({ ...VALID, number: "4242abcd42424242" })).toEqual([{ field: "number", message: expect.any(String) }]);
  });

  it("keeps a card valid through the last day of its expiration month", () => {
    const thisMonth = { ...VALID, expirationMonth: "05", expirationYear: "2026" };
    expect(validateCard(thisMonth, new Date("2026-05-31T23:59:59Z")).ok).toBe(true);
    expect(errorsOf(thisMonth, new Date("2026-06-01T00:00:00Z"))).toEqual([
      { field: "expirationMonth", message: "Card is expired." },
    ]);
    expect(errorsOf({ ...VALID, expirationMonth: "04", expirationYear: "2026" })).toEqual([
      { field: "expirationMonth", message: "Card is expired." },
    ]);
    expect(errorsOf({ ...VALID, expirationMonth: "12", expirationYear: "25" })).toEqual([
      { field: "expirationYear", message: "Card is expired." },
    ]);
  });

  it("rejects impossible months and years", () => {
    expect(errorsOf({ ...VALID, expirationMonth: "13" })).toEqual([{ field: "expirationMonth", message: expect.any(String) }]);
    expect(errorsOf({ ...VALID, expirationMonth: "0" })).toEqual([{ field: "expirationMonth", message: expect.any(String) }]);
    expect(errorsOf({ ...VALID, expirationYear: "203" })).toEqual([{ field: "expirationYear", message: expect.any(String) }]);
    expect(errorsOf({ ...VALID, expirationYear: "2070" })).toEqual([
      { field: "expirationYear", message: expect.stringContaining("future") },
    ]);
  });

  it("requires a holder name", () => {
    expect(errorsOf({ ...VALID, holderName: "   " })).toEqual([{ field: "holderName", message: "Holder name is required." }]);
    expect(errorsOf({ ...VALID, holderName: undefined })).toEqual([{ field: "holderName", message: expect.any(String) }]);
  });

  it("reports every bad field at once", () => {
    const fields = errorsOf({ number: "1", holderName: "", expirationMonth: "99", expirationYear: "x", cvv: "" }).map(
      (e) => e.field,
    );
    expect(fields).toEqual(["number", "holderName", "expirationMonth", "expirationYear", "cvv"]);
  });

  it("asks for a string when a JSON number has lost the PAN's digits", () => {
    expect(errorsOf({ ...VALID, number: 4000000000000000002 })).toEqual([
      { field: "number", message: expect.stringContaining("string") },
    ]);
  });
});
