import { describe, expect, it } from "vitest";
import { sandboxKeyLookup } from "@/lib/processors/sandbox/key-lookup";

const now = new Date("2026-11-23T12:00:00Z");

describe("sandbox DICT lookup (cash-out recipient)", () => {
  it("answers the same holder for the same key, every time", async () => {
    const a = await sandboxKeyLookup.lookupKey({ type: "cpf", key: "11144477735", now });
    const b = await sandboxKeyLookup.lookupKey({ type: "cpf", key: "11144477735", now });
    expect(a).toEqual(b);
    expect(a).toEqual({ name: "Gabriela Gomes", institution: "Cooperativa Sandbox Ipê", ispb: "99999998" });
  });

  it("gives a company name to a CNPJ key", async () => {
    const c = await sandboxKeyLookup.lookupKey({ type: "cnpj", key: "11222333000181", now });
    expect(c?.name).toMatch(/ Comércio Ltda$/);
  });

  it("does not know the unregistered test key", async () => {
    expect(await sandboxKeyLookup.lookupKey({ type: "evp", key: "fa11ed00-0000-4000-8000-000000000000", now })).toBeNull();
  });
});
