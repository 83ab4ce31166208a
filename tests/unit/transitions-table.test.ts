import { describe, expect, it } from "vitest";
import type { CashOutMoney, TransactionMoney } from "@/lib/domain/journals";
import type { JournalDraft, PostingLine } from "@/lib/domain/ledger";
import {
  CASH_OUT_CAUSES,
  MONEY_TABLE,
  TRANSACTION_CAUSES,
  cashOutRule,
  targetOf,
  transactionRule,
  type CashOutCause,
  type MoneyTable,
  type TransactionCause,
} from "@/lib/domain/transitions";
import { TransitionError } from "@/lib/domain/status";

// The compiler holds the table complete: a cause without a row, or a row without a journal or an
// event, does not type-check (these lines fail `tsc` if the table stops refusing them).
const { card_settled, ...tableWithoutSettlement } = MONEY_TABLE;
// @ts-expect-error a table that lacks the card_settled row is not a MoneyTable
const withoutRow: MoneyTable = tableWithoutSettlement;
// @ts-expect-error a row without a journal is not a row
const withoutJournal: MoneyTable["chargeback"] = { subject: "transaction", moves: [], patch: () => ({}), event: "status", timeline: "record" };
// @ts-expect-error a row without an event is not a row
const withoutEvent: MoneyTable["cash_out_failed"] = { subject: "cash_out", moves: [], patch: () => ({}), journal: () => null };
void [card_settled, withoutRow, withoutJournal, withoutEvent];

const base: TransactionMoney = {
  id: 7,
  companyId: 3,
  paymentMethod: "pix",
  status: "paid",
  amount: 10_000,
  paidAmount: 10_000,
  refundedAmount: 0,
  feeEstimated: 150,
  settledAt: null,
  acquirerType: "sandbox",
};
const card = (over: Partial<TransactionMoney> = {}): TransactionMoney => ({ ...base, paymentMethod: "credit_card", feeEstimated: 500, ...over });
const pix = (over: Partial<TransactionMoney> = {}): TransactionMoney => ({ ...base, ...over });
const cashOut: CashOutMoney = { id: 11, companyId: 3, amount: 5_000, fee: 200, processor: "sandbox" };

type Line = [owner: string, account: string, entryType: string, amount: number];
const lines = (j: JournalDraft | null): Line[] =>
  (j?.lines ?? []).filter((l: PostingLine) => l.amount !== 0).map((l) => [l.owner, l.account, l.entryType, l.amount]);
const sum = (j: JournalDraft | null) => (j?.lines ?? []).reduce((s, l) => s + l.amount, 0);

/** One case per cause: what the journal builder gets and the postings it must produce. */
type Case = { before: TransactionMoney; after: TransactionMoney; facts: unknown; expected: Line[]; kind?: string };
const TRANSACTION_CASES: { [C in TransactionCause]: Case[] } = {
  created: [
    { before: pix({ status: "pending", paidAmount: 0 }), after: pix({ status: "pending", paidAmount: 0 }), facts: {}, expected: [] },
    {
      before: card({ status: "paid" }),
      after: card({ status: "paid" }),
      facts: {},
      kind: "payment",
      expected: [
        ["platform", "acquirer_clearing", "payment", -10_000],
        ["merchant", "waiting_funds", "payment", 10_000],
        ["merchant", "waiting_funds", "fee", -500],
        ["platform", "platform_fees", "fee", 500],
      ],
    },
    { before: card({ status: "refused", paidAmount: 0 }), after: card({ status: "refused", paidAmount: 0 }), facts: {}, expected: [] },
  ],
  payment_processing: [{ before: pix({ status: "pending" }), after: pix({ status: "processing" }), facts: {}, expected: [] }],
  payment_received: [
    {
      before: pix({ status: "pending", paidAmount: 0 }),
      after: pix({ status: "paid", paidAmount: 9_000 }),
      facts: { paidAt: new Date(), paidAmount: 9_000 },
      kind: "payment",
      expected: [
        ["platform", "psp_clearing", "payment", -9_000],
        ["merchant", "available", "payment", 9_000],
        ["merchant", "available", "fee", -150],
        ["platform", "platform_fees", "fee", 150],
      ],
    },
  ],
  acquirer_approved: [
    {
      before: card({ status: "processing", paidAmount: 0, settledAt: new Date() }),
      after: card({ status: "paid", settledAt: new Date() }),
      facts: { paidAt: new Date(), paidAmount: 10_000 },
      kind: "payment",
      expected: [
        ["platform", "acquirer_clearing", "payment", -10_000],
        ["merchant", "available", "payment", 10_000],
        ["merchant", "available", "fee", -500],
        ["platform", "platform_fees", "fee", 500],
      ],
    },
  ],
  acquirer_refused: [{ before: card({ status: "processing" }), after: card({ status: "refused" }), facts: { refusedReason: "card_declined" }, expected: [] }],
  partial_refund: [
    {
      // An unsettled card: its own waiting share (9,500 net) pays first.
      before: card(),
      after: card({ refundedAmount: 3_000 }),
      facts: { amount: 3_000 },
      kind: "refund",
      expected: [
        ["merchant", "waiting_funds", "refund", -3_000],
        ["platform", "acquirer_clearing", "refund", 3_000],
      ],
    },
  ],
  refund: [
    {
      // The rest of an unsettled card: 9,500 net waiting, 10,000 paid, so 500 comes from available.
      before: card(),
      after: card({ status: "refunded", refundedAmount: 10_000 }),
      facts: { amount: 10_000 },
      kind: "refund",
      expected: [
        ["merchant", "waiting_funds", "refund", -9_500],
        ["merchant", "available", "refund", -500],
        ["platform", "acquirer_clearing", "refund", 10_000],
      ],
    },
  ],
  duplicate_payment_refund: [
    {
      before: pix({ feeEstimated: 0 }),
      after: pix({ status: "refunded", feeEstimated: 0, refundedAmount: 10_000 }),
      facts: { amount: 10_000, checkoutId: 4, paidById: 6 },
      kind: "refund",
      expected: [
        ["merchant", "available", "refund", -10_000],
        ["platform", "psp_clearing", "refund", 10_000],
      ],
    },
  ],
  chargeback: [
    {
      before: pix({ refundedAmount: 2_000 }),
      after: pix({ status: "chargedback", refundedAmount: 2_000 }),
      facts: {},
      kind: "chargeback",
      expected: [
        ["merchant", "available", "chargeback", -8_000],
        ["platform", "psp_clearing", "chargeback", 8_000],
      ],
    },
    {
      before: card(),
      after: card({ status: "chargedback" }),
      facts: {},
      kind: "chargeback",
      expected: [
        ["merchant", "waiting_funds", "chargeback", -9_500],
        ["merchant", "available", "chargeback", -500],
        ["platform", "acquirer_clearing", "chargeback", 10_000],
      ],
    },
  ],
  protest: [{ before: pix({ status: "chargedback" }), after: pix({ status: "in_protest" }), facts: {}, expected: [] }],
  protest_won: [
    {
      before: card({ status: "in_protest" }),
      after: card({ status: "paid" }),
      facts: {},
      kind: "chargeback_reversal",
      expected: [
        ["platform", "acquirer_clearing", "chargeback_reversal", -10_000],
        ["merchant", "waiting_funds", "chargeback_reversal", 9_500],
        ["merchant", "available", "chargeback_reversal", 500],
      ],
    },
  ],
  protest_lost: [{ before: pix({ status: "in_protest" }), after: pix({ status: "chargedback" }), facts: {}, expected: [] }],
  card_settled: [
    {
      before: card(),
      after: card({ settledAt: new Date() }),
      facts: { waiting: 9_500, settledAt: new Date() },
      kind: "settlement",
      expected: [
        ["merchant", "waiting_funds", "settlement", -9_500],
        ["merchant", "available", "settlement", 9_500],
      ],
    },
    { before: card({ status: "chargedback" }), after: card({ status: "chargedback" }), facts: { waiting: 0, settledAt: new Date() }, expected: [] },
  ],
  psp_refund_requested: [
    {
      before: pix(),
      after: pix(),
      facts: { amount: 4_000 },
      kind: "refund",
      expected: [
        ["merchant", "available", "refund", -4_000],
        ["merchant", "reserved", "refund", 4_000],
      ],
    },
  ],
  psp_refund_failed: [
    {
      before: pix(),
      after: pix(),
      facts: { amount: 4_000, reserved: true },
      kind: "refund",
      expected: [
        ["merchant", "reserved", "refund", -4_000],
        ["merchant", "available", "refund", 4_000],
      ],
    },
    // A refund opened before refunds were held: nothing to release.
    { before: pix(), after: pix(), facts: { amount: 4_000, reserved: false }, expected: [] },
  ],
};

const CASH_OUT_CASES: { [C in CashOutCause]: { expected: Line[]; kind?: string } } = {
  cash_out_requested: {
    kind: "cash_out",
    expected: [
      ["merchant", "available", "cash_out", -5_000],
      ["merchant", "available", "cash_out_fee", -200],
      ["merchant", "reserved", "cash_out", 5_000],
      ["merchant", "reserved", "cash_out_fee", 200],
    ],
  },
  cash_out_processing: { expected: [] },
  cash_out_completed: {
    kind: "cash_out",
    expected: [
      ["merchant", "reserved", "cash_out", -5_000],
      ["platform", "psp_clearing", "cash_out", 5_000],
      ["merchant", "reserved", "cash_out_fee", -200],
      ["platform", "platform_fees", "cash_out_fee", 200],
    ],
  },
  cash_out_failed: {
    kind: "cash_out_reversal",
    expected: [
      ["merchant", "reserved", "cash_out_reversal", -5_200],
      ["merchant", "available", "cash_out_reversal", 5_200],
    ],
  },
};

describe("the money table, row by row", () => {
  it("has one row per cause, transactions and cash-outs", () => {
    expect([...TRANSACTION_CAUSES, ...CASH_OUT_CAUSES].sort()).toEqual(Object.keys(MONEY_TABLE).sort());
    expect(TRANSACTION_CAUSES.sort()).toEqual(Object.keys(TRANSACTION_CASES).sort());
  });

  describe.each(TRANSACTION_CAUSES)("transaction cause %s", (cause) => {
    it.each(TRANSACTION_CASES[cause].map((c, i) => [i, c] as const))("case %i: journal balances, on the right accounts and amounts", (_, c) => {
      const journal = transactionRule(cause).journal({ before: c.before, after: c.after, facts: c.facts as never });
      expect(sum(journal)).toBe(0);
      expect(lines(journal)).toEqual(c.expected);
      if (journal) {
        expect(journal.kind).toBe(c.kind);
        expect(journal).toMatchObject({ companyId: 3, transactionId: 7 });
      }
    });
  });

  describe.each(CASH_OUT_CAUSES)("cash-out cause %s", (cause) => {
    it("journal balances, on the right accounts and amounts", () => {
      const journal = cashOutRule(cause).journal({ before: cashOut, after: cashOut, facts: {} as never });
      expect(sum(journal)).toBe(0);
      expect(lines(journal)).toEqual(CASH_OUT_CASES[cause].expected);
      if (journal) expect(journal).toMatchObject({ kind: CASH_OUT_CASES[cause].kind, companyId: 3, cashOutId: 11 });
    });
  });

  it("sends events for status changes, none for a partial refund or a settlement", () => {
    const silent = Object.entries(MONEY_TABLE).filter(([, r]) => r.event === "none").map(([c]) => c);
    expect(silent.sort()).toEqual(["card_settled", "partial_refund", "psp_refund_failed", "psp_refund_requested"]);
  });

  it("records every transaction cause on the timeline except a settlement", () => {
    expect(TRANSACTION_CAUSES.filter((c) => transactionRule(c).timeline === "none")).toEqual(["card_settled"]);
  });

  it("sets the refunded amount from the refund's facts, and refuses a refund that does not fit", () => {
    expect(transactionRule("partial_refund").patch({ amount: 3_000 }, pix({ refundedAmount: 1_000 }))).toEqual({ refundedAmount: 4_000 });
    expect(transactionRule("refund").patch({ amount: 9_000 }, pix({ refundedAmount: 1_000 }))).toEqual({ refundedAmount: 10_000 });
    expect(() => transactionRule("refund").patch({ amount: 3_000 }, pix())).toThrow(/full refund/);
    expect(() => transactionRule("partial_refund").patch({ amount: 10_000 }, pix())).toThrow(/partial refund/);
    expect(() => transactionRule("partial_refund").patch({ amount: 10_001 }, pix())).toThrow(/partial refund/);
  });

  it("books a PSP's devolução from what its request held, not from available", () => {
    for (const cause of ["refund", "partial_refund"] as const) {
      const amount = cause === "refund" ? 10_000 : 4_000;
      const journal = transactionRule(cause).journal({ before: pix(), after: pix(), facts: { amount, fromReserve: true } });
      expect(lines(journal)).toEqual([
        ["merchant", "reserved", "refund", -amount],
        ["platform", "psp_clearing", "refund", amount],
      ]);
    }
  });

  it("holds a PSP refund under the overdraft guard, except the return of a link's duplicate payment", () => {
    const guarded = transactionRule("psp_refund_requested").journal({ before: pix(), after: pix(), facts: { amount: 4_000 } });
    expect(guarded!.lines.find((l) => l.account === "available")).toMatchObject({ mustStayNonNegative: true });
    const duplicate = transactionRule("psp_refund_requested").journal({ before: pix(), after: pix(), facts: { amount: 4_000, returnsDuplicate: true } });
    expect(duplicate!.lines.find((l) => l.account === "available")).toMatchObject({ mustStayNonNegative: false });
    expect(targetOf("psp_refund_requested", "pix", "paid")).toBe("paid");
    expect(() => targetOf("psp_refund_requested", "pix", "refunded")).toThrow(TransitionError);
    expect(() => targetOf("psp_refund_requested", "boleto", "paid")).toThrow(TransitionError);
  });

  it("keeps money at the merchant's own PSP apart: every journal of an API Pix charge and of a cash-out sent from that PSP uses available_at_psp, never available", () => {
    const atPsp = pix({ acquirerType: "api-pix" });
    const merchantAccounts = (j: JournalDraft | null) => [...new Set((j?.lines ?? []).filter((l) => l.owner === "merchant" && l.amount !== 0).map((l) => l.account))].sort();
    expect(merchantAccounts(transactionRule("payment_received").journal({ before: atPsp, after: atPsp, facts: {} as never }))).toEqual(["available_at_psp"]);
    expect(merchantAccounts(transactionRule("psp_refund_requested").journal({ before: atPsp, after: atPsp, facts: { amount: 4_000 } }))).toEqual(["available_at_psp", "reserved"]);
    expect(merchantAccounts(transactionRule("psp_refund_failed").journal({ before: atPsp, after: atPsp, facts: { amount: 4_000, reserved: true } }))).toEqual(["available_at_psp", "reserved"]);
    expect(merchantAccounts(transactionRule("refund").journal({ before: atPsp, after: atPsp, facts: { amount: 10_000 } }))).toEqual(["available_at_psp"]);
    // The sandbox's PIX: Arara holds it.
    expect(merchantAccounts(transactionRule("payment_received").journal({ before: pix(), after: pix(), facts: {} as never }))).toEqual(["available"]);

    const efi = { ...cashOut, processor: "efi-pix-envio" };
    expect(merchantAccounts(cashOutRule("cash_out_requested").journal({ before: efi, after: efi, facts: {} as never }))).toEqual(["available_at_psp", "reserved"]);
    expect(merchantAccounts(cashOutRule("cash_out_failed").journal({ before: efi, after: efi, facts: {} as never }))).toEqual(["available_at_psp", "reserved"]);
    expect(merchantAccounts(cashOutRule("cash_out_requested").journal({ before: cashOut, after: cashOut, facts: {} as never }))).toEqual(["available", "reserved"]);
  });

  it("waives the fee of a payment returned as a duplicate", () => {
    const patch = transactionRule("payment_received").patch({ paidAt: new Date(0), paidAmount: 10_000, returnedAsDuplicateOf: 6 }, pix());
    expect(patch).toMatchObject({ duplicateOfId: 6, feeFixed: 0, feeEstimated: 0, paidAmount: 10_000 });
    expect(patch).not.toHaveProperty("returnedAsDuplicateOf");
  });

  it("resolves each cause's target, and refuses a move its row does not list", () => {
    expect(targetOf("payment_received", "pix", "pending")).toBe("paid");
    expect(targetOf("partial_refund", "boleto", "paid")).toBe("paid");
    expect(targetOf("card_settled", "credit_card", "chargedback")).toBe("chargedback");
    expect(targetOf("created", "credit_card", null, "processing")).toBe("processing");
    expect(() => targetOf("created", "pix", null, "paid")).toThrow(TransitionError);
    expect(() => targetOf("acquirer_approved", "pix", "processing")).toThrow(TransitionError);
    expect(() => targetOf("refund", "pix", "pending")).toThrow(TransitionError);
    expect(() => targetOf("card_settled", "pix", "paid")).toThrow(TransitionError);
  });
});
