/**
 * The fee card's figures after money went back (lib/domain/net-amount.ts): the fee is kept, so what a
 * sale leaves is its net less the refunds, or less everything paid once a chargeback took it.
 */
import { describe, expect, it } from "vitest";
import { feeViewOf } from "@/lib/domain/net-amount";

const plan = { maxInstallments: 12, interestFree: 1, monthlyRateBp: 199 };
// A R$ 100,00 PIX paid, fee R$ 0,99: net R$ 99,01.
const paid = {
  paymentMethod: "pix",
  amount: 10_000,
  paidAmount: 10_000,
  installments: 1,
  installmentPlan: null,
  status: "paid",
  feeEstimated: 99,
  feeFixed: 0,
  expiresAt: null,
  refundedAmount: 0,
};
const now = new Date("2026-11-29T12:00:00Z");

describe("feeViewOf once money went back", () => {
  it("says nothing went back on a paid charge", () => {
    expect(feeViewOf(paid, plan, now)).toMatchObject({ kind: "charged", net: 9_901, returned: 0, returnedBy: null, netAfterReturns: 9_901 });
  });

  it("subtracts the refunds from the net, the fee kept", () => {
    expect(feeViewOf({ ...paid, refundedAmount: 4_000 }, plan, now)).toMatchObject({ returned: 4_000, returnedBy: "refunds", netAfterReturns: 5_901 });
    expect(feeViewOf({ ...paid, status: "refunded", refundedAmount: 10_000 }, plan, now)).toMatchObject({ returned: 10_000, returnedBy: "refunds", netAfterReturns: -99 });
  });

  it("takes all that was paid for a chargeback, refunds before it included", () => {
    expect(feeViewOf({ ...paid, status: "chargedback" }, plan, now)).toMatchObject({ returned: 10_000, returnedBy: "chargeback", netAfterReturns: -99 });
    expect(feeViewOf({ ...paid, status: "chargedback", refundedAmount: 3_000 }, plan, now)).toMatchObject({
      returned: 10_000,
      returnedBy: "refunds_and_chargeback",
      netAfterReturns: -99,
    });
  });

  it("counts a card's interest in what a chargeback took back", () => {
    const card = { ...paid, paymentMethod: "credit_card", installments: 6, paidAmount: 10_708, feeEstimated: 1_148, status: "chargedback" };
    expect(feeViewOf(card, plan, now)).toMatchObject({ charged: 10_708, net: 9_560, returned: 10_708, netAfterReturns: -1_148 });
  });
});
