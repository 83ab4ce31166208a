import { describe, expect, it } from "vitest";
import { addressLines, hasDelivery, mayShip } from "@/lib/domain/delivery";

describe("a sale's delivery", () => {
  it("writes the address as on a parcel, leaving out what was not given", () => {
    expect(
      addressLines({ street: "Rua das Flores", streetNumber: "100", complement: "Apto 12", zipCode: "01310100", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", country: "BR" }),
    ).toEqual(["Rua das Flores, 100 — Apto 12", "Bela Vista", "São Paulo/SP", "CEP 01310-100"]);
    expect(addressLines({ street: "Av. Paulista", city: "São Paulo", zipCode: "0131" , country: "Portugal" })).toEqual(["Av. Paulista", "São Paulo", "CEP 0131", "Portugal"]);
    expect(addressLines({ complement: "Fundos" })).toEqual(["Fundos"]);
    expect(addressLines(null)).toEqual([]);
    expect(addressLines({})).toEqual([]);
  });

  it("has goods to deliver with a shipping record or a physical item", () => {
    expect(hasDelivery({ shipping: null, items: [{ tangible: false }] })).toBe(false);
    expect(hasDelivery({ shipping: null, items: [{ tangible: false }, { tangible: true }] })).toBe(true);
    expect(hasDelivery({ shipping: { fee: 500, address: null }, items: [{ tangible: false }] })).toBe(true);
  });

  it("ships only what was paid, a refund or chargeback since not undoing a shipment", () => {
    for (const s of ["paid", "refunded", "chargedback", "in_protest"]) expect(mayShip(s), s).toBe(true);
    for (const s of ["pending", "processing", "refused"]) expect(mayShip(s), s).toBe(false);
  });
});
