import { describe, expect, it } from "vitest";
import { dueDateFactor, dueDateFromFactor } from "@/lib/domain/boleto/factor";

const d = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (date: Date | null) => date?.toISOString().slice(0, 10);

describe("dueDateFactor", () => {
  it.each([
    ["2000-07-03", "1000"], // day 1000 after 1997-10-07, the first 4-digit factor
    ["2018-06-11", "7552"],
    ["2025-02-21", "9999"], // last day of the first cycle
    ["2025-02-22", "1000"], // FEBRABAN reset
    ["2025-02-23", "1001"],
    ["2026-12-31", "1677"],
    ["2049-10-13", "9999"], // end of the second cycle: 9000 days after 2025-02-21
    ["2049-10-14", "1000"],
  ])("%s has factor %s", (date, factor) => {
    expect(dueDateFactor(d(date))).toBe(factor);
  });

  it("reads only the UTC calendar day", () => {
    expect(dueDateFactor(new Date("2025-02-22T23:59:59.999Z"))).toBe("1000");
    expect(dueDateFactor(new Date("2025-02-21T23:59:59.999Z"))).toBe("9999");
  });

  it("has no factor before 2000-07-03", () => {
    expect(() => dueDateFactor(d("2000-07-02"))).toThrow(RangeError);
    expect(() => dueDateFactor(new Date("invalid"))).toThrow(RangeError);
  });
});

describe("dueDateFromFactor", () => {
  it("picks the date nearest the reference", () => {
    expect(iso(dueDateFromFactor("1000", d("2025-03-01")))).toBe("2025-02-22");
    expect(iso(dueDateFromFactor("1000", d("2001-01-01")))).toBe("2000-07-03");
    expect(iso(dueDateFromFactor("9999", d("2025-03-01")))).toBe("2025-02-21");
    expect(iso(dueDateFromFactor("1677", d("2026-11-01")))).toBe("2026-12-31");
    expect(iso(dueDateFromFactor("7552", d("2018-06-01")))).toBe("2018-06-11");
    expect(iso(dueDateFromFactor(1001, d("2049-10-14")))).toBe("2049-10-15");
  });

  it("reads a factor from the previous cycle when that is nearer (an overdue slip)", () => {
    // 9990 is 2025-02-12; read on 2025-03-10 it is 26 days ago, not 24 years ahead
    expect(iso(dueDateFromFactor("9990", d("2025-03-10")))).toBe("2025-02-12");
  });

  it("returns null for 0000 (no due date)", () => {
    expect(dueDateFromFactor("0000", d("2025-03-01"))).toBeNull();
  });

  it("refuses factors that are not 4 digits or below 1000", () => {
    expect(() => dueDateFromFactor("999", d("2025-03-01"))).toThrow(RangeError);
    expect(() => dueDateFromFactor("0999", d("2025-03-01"))).toThrow(RangeError);
    expect(() => dueDateFromFactor("12a4", d("2025-03-01"))).toThrow(RangeError);
  });

  it("round-trips every day of a year around the reset", () => {
    const reference = d("2025-02-22");
    for (let i = -180; i <= 180; i++) {
      const due = new Date(reference.getTime() + i * 86_400_000);
      expect(dueDateFromFactor(dueDateFactor(due), reference)?.getTime()).toBe(due.getTime());
    }
  });
});
