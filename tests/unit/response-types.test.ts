import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { CashOutSchema } from "@/lib/openapi/components";
import type { CheckedResponses, Covers, Fits, Widen } from "@/lib/openapi/response-types";
import type { CashOutResource } from "@/lib/services/cash-outs/cash-out-view";

type Schema = z.input<typeof CashOutSchema>;

// A mapper that drifts from its response schema fails `tsc` (these lines fail it if the check stops biting).
// @ts-expect-error a mapper that adds a field the schema does not document
type Added = Covers<Widen<Schema>, CashOutResource & { extra: number }>;
// @ts-expect-error a mapper that retypes a field (amount as text)
type Retyped = Fits<Omit<CashOutResource, "amount"> & { amount: string }, Schema>;
// @ts-expect-error a mapper that drops a documented field
type Dropped = Fits<Omit<CashOutResource, "fee">, Schema>;

describe("response mappers typed by the OpenAPI schemas", () => {
  it("checks six mappers, and refuses an added, retyped or dropped field", () => {
    const checked: CheckedResponses["length"] = 12;
    const drifts: [Added, Retyped, Dropped] | null = null;
    expect(checked).toBe(12);
    expect(drifts).toBeNull();
  });
});
