import { describe, expect, it, beforeAll } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { getDashboardOverview, localDate } from "@/lib/services/dashboard/dashboard-overview";
import type { Account } from "@/lib/services/context";

// 15:00 in Brasília on 20 March 2026 (UTC-3).
const NOW = new Date("2026-03-20T18:00:00Z");

let account: Account;
let other: Account;

beforeAll(async () => {
  account = (await findAccountById((await createTestAccount("Overview")).companyId))!;
  other = (await findAccountById((await createTestAccount("Outra")).companyId))!;
  const id = account.id;
  // Today: a paid PIX of R$ 100,00, a pending PIX, a paid card of R$ 250,00.
  await insertTransaction(id, { status: "paid", amount: 10000, paidAmount: 10000, createdAt: new Date("2026-03-20T12:00:00Z"), paidAt: new Date("2026-03-20T12:05:00Z") });
  await insertTransaction(id, { status: "pending", amount: 5000, createdAt: new Date("2026-03-20T13:00:00Z") });
  await insertTransaction(id, {
    status: "paid",
    paymentMethod: "credit_card",
    amount: 25000,
    paidAmount: 25000,
    createdAt: new Date("2026-03-20T14:00:00Z"),
    paidAt: new Date("2026-03-20T14:00:00Z"),
  });
  // A refused card today: created, not paid.
  await insertTransaction(id, { status: "refused", paymentMethod: "credit_card", amount: 8000, createdAt: new Date("2026-03-20T15:00:00Z") });
  // 02:00 UTC on 19 March is 23:00 on 18 March in Brasília: it belongs to the 18th.
  await insertTransaction(id, {
    status: "paid",
    paymentMethod: "boleto",
    amount: 30000,
    paidAmount: 30000,
    createdAt: new Date("2026-02-10T12:00:00Z"),
    paidAt: new Date("2026-03-19T02:00:00Z"),
  });
  // Paid and later refunded: still paid volume on its payment day, and still a conversion.
  await insertTransaction(id, {
    status: "refunded",
    amount: 2000,
    paidAmount: 2000,
    refundedAmount: 2000,
    createdAt: new Date("2026-03-15T12:00:00Z"),
    paidAt: new Date("2026-03-15T12:01:00Z"),
  });
  // Outside the window (created and paid 40 days ago).
  await insertTransaction(id, { status: "paid", amount: 99900, paidAmount: 99900, createdAt: new Date("2026-02-08T12:00:00Z"), paidAt: new Date("2026-02-08T12:00:00Z") });
  // Another merchant's money never shows.
  await insertTransaction(other.id, { status: "paid", amount: 77700, paidAmount: 77700, createdAt: NOW, paidAt: NOW });
});

describe("dashboard overview figures", () => {
  it("covers the last 30 days including today, in Brasília days", async () => {
    const o = await getDashboardOverview({ account, now: NOW });
    expect(o.to).toBe("2026-03-20");
    expect(o.from).toBe("2026-02-19");
    expect(o.days).toHaveLength(30);
    expect(o.days[0].date).toBe("2026-02-19");
    expect(o.days[29].date).toBe("2026-03-20");
  });

  it("sums paid volume per day and method by payment date", async () => {
    const o = await getDashboardOverview({ account, now: NOW });
    const day = (d: string) => o.days.find((x) => x.date === d)!;
    expect(day("2026-03-20")).toMatchObject({ pix: 10000, credit_card: 25000, boleto: 0, total: 35000 });
    expect(day("2026-03-18")).toMatchObject({ boleto: 30000, total: 30000 });
    expect(day("2026-03-19").total).toBe(0);
    expect(day("2026-03-15")).toMatchObject({ pix: 2000, total: 2000 });
    const sum = o.days.reduce((s, d) => s + d.total, 0);
    expect(sum).toBe(10000 + 25000 + 30000 + 2000);
    expect(o.totals.paidVolume).toBe(sum);
  });

  it("counts transactions created per method, how many were paid, and the conversion", async () => {
    const o = await getDashboardOverview({ account, now: NOW });
    const m = Object.fromEntries(o.byMethod.map((x) => [x.method, x]));
    expect(m.pix).toMatchObject({ created: 3, paid: 2, paidVolume: 12000 });
    expect(m.pix.conversion).toBeCloseTo(2 / 3, 10);
    expect(m.credit_card).toMatchObject({ created: 2, paid: 1, conversion: 0.5, paidVolume: 25000 });
    // The boleto was created before the window but paid inside it: volume yes, no creation counted.
    expect(m.boleto).toMatchObject({ created: 0, paid: 0, conversion: null, paidVolume: 30000 });
    expect(o.totals).toMatchObject({ created: 5, paid: 3 });
    expect(o.totals.conversion).toBeCloseTo(3 / 5, 10);
  });

  it("shows nothing of another merchant and handles an empty account", async () => {
    const o = await getDashboardOverview({ account: other, now: new Date("2030-01-01T12:00:00Z") });
    expect(o.totals).toEqual({ created: 0, paid: 0, conversion: null, paidVolume: 0 });
    expect(o.byMethod.every((m) => m.conversion === null)).toBe(true);
    const own = await getDashboardOverview({ account, now: NOW });
    expect(own.days.some((d) => d.total === 77700)).toBe(false);
  });

  it("computes the local date of an instant in Brasília time", () => {
    expect(localDate(new Date("2026-03-21T02:59:59Z"))).toBe("2026-03-20");
    expect(localDate(new Date("2026-03-21T03:00:00Z"))).toBe("2026-03-21");
  });
});
