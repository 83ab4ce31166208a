import { describe, expect, it } from "vitest";
import { parseId } from "@/lib/core/ids";
import { isPastExpiry } from "@/lib/domain/expiry";
import { brasiliaDay, endOfBrasiliaDay } from "@/lib/domain/time";
import { centavos, httpUrl, MAX_AMOUNT, MAX_URL_LENGTH } from "@/lib/schemas/fields";

describe("the expired rule (one comparison everywhere)", () => {
  const at = new Date("2026-06-14T12:00:00Z");
  it("is expired from the expiry instant on, not before, and never without an expiry", () => {
    expect(isPastExpiry(at, new Date(at.getTime() - 1))).toBe(false);
    expect(isPastExpiry(at, at)).toBe(true);
    expect(isPastExpiry(at, new Date(at.getTime() + 1))).toBe(true);
    expect(isPastExpiry(null, at)).toBe(false);
  });
});

describe("Brasília time", () => {
  it("counts the day at UTC-03:00 and ends it at 23:59:59.999 there", () => {
    expect(brasiliaDay(new Date("2026-06-15T02:59:59Z"))).toBe("2026-06-14");
    expect(brasiliaDay(new Date("2026-06-15T03:00:00Z"))).toBe("2026-06-15");
    expect(endOfBrasiliaDay(new Date("2026-06-14T00:00:00Z")).toISOString()).toBe("2026-06-15T02:59:59.999Z");
  });
});

describe("parseId", () => {
  it.each([[42, 42], ["42", 42], ["007", 7]])("reads %j as %j", (raw, id) => expect(parseId(raw)).toBe(id));
  it.each(["", "4a", "-1", "1e3", "1234567890123456", " 4"])("refuses %j", (raw) => expect(parseId(raw)).toBeNull());
});

describe("centavos and httpUrl fields", () => {
  it("take an integer from min to the one ceiling, digit strings only where asked", () => {
    expect(centavos("x").safeParse(MAX_AMOUNT).success).toBe(true);
    expect(centavos("x").safeParse(MAX_AMOUNT + 1).success).toBe(false);
    expect(centavos("x").safeParse(0).success).toBe(false);
    expect(centavos("x", { min: 0 }).safeParse(0).success).toBe(true);
    expect(centavos("x").safeParse("1500").success).toBe(false);
    expect(centavos("x", { digitStrings: true }).parse("1500")).toBe(1500);
    expect(centavos("x").safeParse(10.5).success).toBe(false);
  });

  it("accepts an absolute http(s) URL up to MAX_URL_LENGTH characters", () => {
    const base = "https://merchant.example/";
    expect(httpUrl.safeParse(base + "a".repeat(MAX_URL_LENGTH - base.length)).success).toBe(true);
    expect(httpUrl.safeParse(base + "a".repeat(MAX_URL_LENGTH - base.length + 1)).success).toBe(false);
    expect(httpUrl.safeParse("ftp://merchant.example/").success).toBe(false);
    expect(httpUrl.safeParse("/relative").success).toBe(false);
  });
});
