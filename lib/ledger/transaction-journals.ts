import type { PostingLine } from "@/lib/domain/ledger";
import type { TransactionStatus } from "@/lib/domain/status";
import type { TransactionRow } from "@/lib/services/transaction-view";
import type { JournalInput } from "./post";

/**
 * The money side of each status move of a transaction. Returns null for moves that move no money
 * (pending -> processing, a refusal). The rows passed in are the transaction after the move.
 *
 * Where the money sits:
 * - PIX and boleto are settled by the PSP at once: the payment lands in `available`.
 * - Card money is owed by the acquirer until settlement: it lands in `waiting_funds` and the
 *   settlement job moves it to `available` (unless CARD_SETTLEMENT_DAYS is 0: then at once).
 */
export function journalForMove(
  after: TransactionRow,
  from: TransactionStatus | null,
  to: TransactionStatus,
  now: Date,
): JournalInput | null {
  const base = { companyId: after.companyId, transactionId: after.id, now };
  const card = after.paymentMethod === "credit_card";
  const clearing = card ? ("acquirer_clearing" as const) : ("psp_clearing" as const);
  const fundsAccount = card && after.settledAt === null ? ("waiting_funds" as const) : ("available" as const);

  if (to === "paid" && from !== "in_protest") {
    const amount = after.paidAmount || after.amount;
    const fee = after.feeEstimated;
    const lines: PostingLine[] = [
      { owner: "platform", account: clearing, entryType: "payment", amount: -amount },
      { owner: "merchant", account: fundsAccount, entryType: "payment", amount },
      { owner: "merchant", account: fundsAccount, entryType: "fee", amount: -fee },
      { owner: "platform", account: "platform_fees", entryType: "fee", amount: fee },
    ];
    return { ...base, kind: "payment", description: `Payment of transaction ${after.id}`, lines };
  }
  if (to === "chargedback" && from === "paid") {
    // The acquirer takes back what the payer still has with the merchant; the fee is not returned.
    const amount = after.paidAmount - after.refundedAmount;
    return {
      ...base,
      kind: "chargeback",
      description: `Chargeback of transaction ${after.id}`,
      lines: [
        { owner: "merchant", account: fundsAccount, entryType: "chargeback", amount: -amount },
        { owner: "platform", account: clearing, entryType: "chargeback", amount },
      ],
    };
  }
  if (to === "paid" && from === "in_protest") {
    const amount = after.paidAmount - after.refundedAmount;
    return {
      ...base,
      kind: "chargeback_reversal",
      description: `Chargeback of transaction ${after.id} reversed`,
      lines: [
        { owner: "platform", account: clearing, entryType: "chargeback_reversal", amount: -amount },
        { owner: "merchant", account: fundsAccount, entryType: "chargeback_reversal", amount },
      ],
    };
  }
  return null;
}

/** A refund (full or partial) of `amount`: the merchant's funds go back through the clearing account. */
export function refundJournal(t: TransactionRow, amount: number, now: Date): JournalInput {
  const card = t.paymentMethod === "credit_card";
  const fundsAccount = card && t.settledAt === null ? ("waiting_funds" as const) : ("available" as const);
  return {
    companyId: t.companyId,
    transactionId: t.id,
    now,
    kind: "refund",
    description: `Refund of ${amount} on transaction ${t.id}`,
    lines: [
      { owner: "merchant", account: fundsAccount, entryType: "refund", amount: -amount, mustStayNonNegative: true },
      { owner: "platform", account: card ? "acquirer_clearing" : "psp_clearing", entryType: "refund", amount },
    ],
  };
}
