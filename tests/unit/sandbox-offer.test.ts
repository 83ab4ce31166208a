import { describe, expect, it } from "vitest";
import { isPendingPastExpiry, offeredSandboxMoves } from "@/lib/domain/sandbox-offer";

const now = new Date("2026-11-23T12:00:00Z");
const past = new Date("2026-11-23T11:00:00Z");
const future = new Date("2026-11-23T13:00:00Z");
const pix = (over: Partial<{ livemode: boolean; acquirerType: string; status: string; expiresAt: Date | null; paymentMethod: string }> = {}) => ({
  livemode: false,
  acquirerType: "sandbox",
  paymentMethod: "pix",
  status: "pending",
  expiresAt: future,
  ...over,
});

describe("the sandbox moves the dashboard offers", () => {
  it("offers paying a pending PIX before its expiry", () => {
    expect(offeredSandboxMoves(pix(), now)).toContain("paid");
  });

  it("offers no payment nor processing once a pending charge is past its expiry (the instant itself counts)", () => {
    for (const expiresAt of [past, now]) {
      const moves = offeredSandboxMoves(pix({ expiresAt }), now);
      expect(moves).not.toContain("paid");
      expect(moves).not.toContain("processing");
    }
  });

  it("never offers a refund (it has its own form) and offers the chargeback of a paid charge", () => {
    const moves = offeredSandboxMoves(pix({ status: "paid" }), now);
    expect(moves).not.toContain("refunded");
    expect(moves).toContain("chargedback");
  });

  it("offers nothing in live mode", () => {
    expect(offeredSandboxMoves(pix({ livemode: true }), now)).toEqual([]);
  });

  it("offers nothing for a charge another processor made (a PIX through the merchant's own PSP)", () => {
    expect(offeredSandboxMoves(pix({ acquirerType: "api-pix", status: "paid" }), now)).toEqual([]);
  });

  it("calls a charge expired only while it is pending", () => {
    expect(isPendingPastExpiry({ status: "pending", expiresAt: past }, now)).toBe(true);
    expect(isPendingPastExpiry({ status: "paid", expiresAt: past }, now)).toBe(false);
    expect(isPendingPastExpiry({ status: "pending", expiresAt: null }, now)).toBe(false);
  });
});
