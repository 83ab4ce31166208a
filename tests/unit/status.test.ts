import { describe, expect, it } from "vitest";
import {
  assertTransition,
  canSandboxMove,
  canTransition,
  CREATION_STATUSES,
  PAYMENT_METHODS,
  SANDBOX_TEST_MOVES,
  TRANSACTION_STATUSES,
  TransitionError,
  TRANSITIONS,
  webhookEventKind,
  type PaymentMethod,
  type TransactionStatus,
} from "@/lib/domain/status";

type Move = [PaymentMethod, TransactionStatus, TransactionStatus];

// The moves docs/api.md allows, written out independently of the table.
const ALLOWED: Move[] = [
  ...(["pix", "boleto"] as const).flatMap((m): Move[] => [
    [m, "pending", "processing"],
    [m, "pending", "paid"],
    [m, "processing", "paid"],
  ]),
  ["credit_card", "processing", "paid"],
  ["credit_card", "processing", "refused"],
  ...PAYMENT_METHODS.flatMap((m): Move[] => [
    [m, "paid", "refunded"],
    [m, "paid", "chargedback"],
    [m, "chargedback", "in_protest"],
    [m, "in_protest", "paid"],
    [m, "in_protest", "chargedback"],
  ]),
];

const key = ([m, f, t]: Move) => `${m}:${f}->${t}`;

describe("TRANSACTION_STATUSES", () => {
  it("are exactly the spec's eight", () => {
    expect([...TRANSACTION_STATUSES].sort()).toEqual(
      ["approved", "chargedback", "in_protest", "paid", "pending", "processing", "refunded", "refused"],
    );
  });
});

describe("transition table", () => {
  it.each(ALLOWED)("%s allows %s -> %s", (method, from, to) => {
    expect(canTransition(method, from, to)).toBe(true);
    expect(assertTransition(method, from, to)).toMatchObject({ from, to });
  });

  it("allows nothing beyond the listed moves (every method x from x to)", () => {
    const allowed = new Set(ALLOWED.map(key));
    for (const m of PAYMENT_METHODS) {
      for (const f of TRANSACTION_STATUSES) {
        for (const t of TRANSACTION_STATUSES) {
          expect(canTransition(m, f, t), key([m, f, t])).toBe(allowed.has(key([m, f, t])));
        }
      }
    }
  });

  it.each<Move>([
    ["credit_card", "refused", "paid"],
    ["pix", "pending", "refunded"],
    ["boleto", "pending", "chargedback"],
    ["credit_card", "pending", "paid"],
    ["pix", "processing", "refused"],
    ["pix", "refunded", "paid"],
    ["credit_card", "paid", "approved"],
    ["pix", "paid", "pending"],
    ["boleto", "paid", "paid"],
  ])("%s refuses %s -> %s with a TransitionError naming both ends", (method, from, to) => {
    expect(canTransition(method, from, to)).toBe(false);
    let error: unknown;
    try {
      assertTransition(method, from, to);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TransitionError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ from, to, method });
  });

  it("has no duplicate rows and gives each row a cause", () => {
    const rows = TRANSITIONS.flatMap((t) => t.methods.map((m) => key([m, t.from, t.to])));
    expect(new Set(rows).size).toBe(rows.length);
    for (const t of TRANSITIONS) expect(t.cause).toMatch(/^[a-z_]+$/);
  });

  it("names the cause of a move", () => {
    expect(assertTransition("pix", "pending", "paid").cause).toBe("payment_received");
    expect(assertTransition("credit_card", "paid", "refunded").cause).toBe("refund");
    expect(assertTransition("boleto", "in_protest", "chargedback").cause).toBe("protest_lost");
  });

  it("treats refused and refunded as final", () => {
    for (const m of PAYMENT_METHODS) {
      for (const t of TRANSACTION_STATUSES) {
        expect(canTransition(m, "refused", t)).toBe(false);
        expect(canTransition(m, "refunded", t)).toBe(false);
      }
    }
  });
});

describe("CREATION_STATUSES", () => {
  it("creates PIX and boleto pending, cards paid, refused or processing", () => {
    expect(CREATION_STATUSES).toEqual({
      pix: ["pending"],
      boleto: ["pending"],
      credit_card: ["paid", "refused", "processing"],
    });
  });
});

describe("webhookEventKind", () => {
  it("sends a card approval as approved, at creation and later", () => {
    expect(webhookEventKind("credit_card", "paid", { isCreation: true })).toBe("approved");
    expect(webhookEventKind("credit_card", "paid", { isCreation: false })).toBe("approved");
  });

  it("sends every other change as its status", () => {
    expect(webhookEventKind("pix", "pending", { isCreation: true })).toBe("pending");
    expect(webhookEventKind("boleto", "pending", { isCreation: true })).toBe("pending");
    expect(webhookEventKind("pix", "paid", { isCreation: false })).toBe("paid");
    expect(webhookEventKind("boleto", "paid", { isCreation: false })).toBe("paid");
    expect(webhookEventKind("credit_card", "refused", { isCreation: true })).toBe("refused");
    expect(webhookEventKind("credit_card", "refunded", { isCreation: false })).toBe("refunded");
    expect(webhookEventKind("pix", "chargedback", { isCreation: false })).toBe("chargedback");
    expect(webhookEventKind("pix", "in_protest", { isCreation: false })).toBe("in_protest");
  });

  it("refuses a creation status the method cannot be created in", () => {
    expect(() => webhookEventKind("pix", "paid", { isCreation: true })).toThrow(TransitionError);
    expect(() => webhookEventKind("credit_card", "pending", { isCreation: true })).toThrow(TransitionError);
  });
});

describe("SANDBOX_TEST_MOVES", () => {
  it("lists the targets the sandbox test endpoint accepts", () => {
    expect([...SANDBOX_TEST_MOVES].sort()).toEqual(
      ["chargedback", "in_protest", "paid", "processing", "refunded", "refused"],
    );
  });

  it("still requires the move to be in the table", () => {
    expect(canSandboxMove("pix", "pending", "paid")).toBe(true);
    expect(canSandboxMove("boleto", "paid", "refunded")).toBe(true);
    expect(canSandboxMove("pix", "pending", "refunded")).toBe(false);
    expect(canSandboxMove("pix", "paid", "pending")).toBe(false);
  });
});
