import { describe, expect, it } from "vitest";
import { brasiliaDay, dueDateAfter } from "@/lib/domain/boleto/due-date";
import { dueDateFactor } from "@/lib/domain/boleto/factor";

describe("boleto due dates in Brasília time", () => {
  it("today is the Brasília calendar day, not the UTC one", () => {
    expect(brasiliaDay(new Date("2026-03-10T02:59:59Z"))).toBe("2026-03-09");
    expect(brasiliaDay(new Date("2026-03-10T03:00:00Z"))).toBe("2026-03-10");
  });

  it("due date is today in Brasília plus the days, payable until the end of that day there", () => {
    const due = dueDateAfter(new Date("2026-12-29T23:30:00-03:00"), 2);
    expect(due.day).toBe("2026-12-31");
    expect(due.utcMidnight.toISOString()).toBe("2026-12-31T00:00:00.000Z");
    expect(due.endOfDay.toISOString()).toBe("2027-01-01T02:59:59.999Z");
    // The factor of the vectors: 2026-12-31 -> 1677.
    expect(dueDateFactor(due.utcMidnight)).toBe("1677");
  });

  it("crosses months and years", () => {
    expect(dueDateAfter(new Date("2026-01-31T12:00:00Z"), 1).day).toBe("2026-02-01");
    expect(dueDateAfter(new Date("2026-10-15T12:00:00Z"), 90).day).toBe("2027-01-13");
  });

  it("refuses negative or fractional days", () => {
    expect(() => dueDateAfter(new Date(), -1)).toThrow(RangeError);
    expect(() => dueDateAfter(new Date(), 1.5)).toThrow(RangeError);
  });
});
