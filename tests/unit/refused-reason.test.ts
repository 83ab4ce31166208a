/** refusedReason under /v1: the family's object, in the words the hosted checkout shows the payer. */
import { describe, expect, it } from "vitest";
import { REFUSAL_DESCRIPTION_OTHER, REFUSAL_DESCRIPTIONS, v1RefusedReason } from "@/lib/core/refused-reason";
import { REFUSAL_REASONS } from "@/lib/processors/types";
import { dictionary } from "@/components/checkout/i18n";

describe("v1RefusedReason", () => {
  it("has Portuguese words for every refusal code, the ones the checkout shows the payer, and a general sentence for any other", () => {
    expect(Object.keys(REFUSAL_DESCRIPTIONS).sort()).toEqual([...REFUSAL_REASONS].sort());
    const checkout = dictionary("pt").card.refused;
    for (const code of REFUSAL_REASONS) expect(checkout[code], code).toBe(REFUSAL_DESCRIPTIONS[code]);
    expect(checkout.other).toBe(REFUSAL_DESCRIPTION_OTHER);
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
