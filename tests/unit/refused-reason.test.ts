/** refusedReason under /v1: the family's object, in the words the hosted checkout shows the payer. */
import { describe, expect, it } from "vitest";
import { REFUSAL_DESCRIPTION_OTHER, REFUSAL_DESCRIPTIONS, v1RefusedReason } from "@/lib/core/refused-reason";
import { REFUSAL_REASONS } from "@/lib/processors/types";
import { dictionary } from "@/components/checkout/i18n";

describe("v1RefusedReason", () => {
  it("has the checkout's Portuguese words for every refusal code, and its general sentence for any other", () => {
    const checkout = dictionary("pt").card.refused;
    for (const code of REFUSAL_REASONS) expect(REFUSAL_DESCRIPTIONS[code], code).toBe(checkout[code]);
    expect(REFUSAL_DESCRIPTION_OTHER).toBe(checkout.other);
    expect(Object.keys(REFUSAL_DESCRIPTIONS).sort()).toEqual([...REFUSAL_REASONS].sort());
  });

  it("is the object { code, acquirerCode, description, message, createdAt } of a refused charge, null otherwise", () => {
    const at = new Date("2026-06-01T12:00:00.000Z");
    expect(v1RefusedReason({ refusedReason: "insufficient_funds", updatedAt: at })).toEqual({
      code: "insufficient_funds",
      acquirerCode: "insufficient_funds",
      description: "Limite ou saldo insuficiente. Tente outro cartão.",
      message: "Limite ou saldo insuficiente. Tente outro cartão.",
      createdAt: "2026-06-01T12:00:00.000Z",
    });
    expect(v1RefusedReason({ refusedReason: "do_not_honor", updatedAt: at })?.description).toBe(REFUSAL_DESCRIPTION_OTHER);
    expect(v1RefusedReason({ refusedReason: null, updatedAt: at })).toBeNull();
  });
});
