import { formatBRL } from "@/lib/domain/money";
import type { JournalInput } from "./post";

type CashOutMoney = { id: number; companyId: number; amount: number; fee: number };

/**
 * Money of a cash-out. At request the amount and the fee leave `available` (guarded: never below
 * zero, so concurrent requests cannot overdraw) and wait in `reserved` while the PSP works; a
 * completed transfer sends the amount to the PSP and the fee to the platform; a failed one returns
 * both to `available`.
 */
export function cashOutRequestJournal(c: CashOutMoney, now: Date): JournalInput {
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    now,
    kind: "cash_out",
    description: `PIX cash-out #${c.id} of ${formatBRL(c.amount)}`,
    lines: [
      { owner: "merchant", account: "available", entryType: "cash_out", amount: -c.amount, mustStayNonNegative: true },
      { owner: "merchant", account: "available", entryType: "cash_out_fee", amount: -c.fee, mustStayNonNegative: true },
      { owner: "merchant", account: "reserved", entryType: "cash_out", amount: c.amount },
      { owner: "merchant", account: "reserved", entryType: "cash_out_fee", amount: c.fee },
    ],
  };
}

export function cashOutCompletionJournal(c: CashOutMoney, now: Date): JournalInput {
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    now,
    kind: "cash_out",
    description: `PIX cash-out #${c.id} sent`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "cash_out", amount: -c.amount, mustStayNonNegative: true },
      { owner: "platform", account: "psp_clearing", entryType: "cash_out", amount: c.amount },
      { owner: "merchant", account: "reserved", entryType: "cash_out_fee", amount: -c.fee, mustStayNonNegative: true },
      { owner: "platform", account: "platform_fees", entryType: "cash_out_fee", amount: c.fee },
    ],
  };
}

export function cashOutReversalJournal(c: CashOutMoney, now: Date): JournalInput {
  const total = c.amount + c.fee;
  return {
    companyId: c.companyId,
    cashOutId: c.id,
    now,
    kind: "cash_out_reversal",
    description: `PIX cash-out #${c.id} failed: ${formatBRL(total)} returned`,
    lines: [
      { owner: "merchant", account: "reserved", entryType: "cash_out_reversal", amount: -total, mustStayNonNegative: true },
      { owner: "merchant", account: "available", entryType: "cash_out_reversal", amount: total },
    ],
  };
}
