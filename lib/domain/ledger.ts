/**
 * Double-entry postings. A journal is a set of postings that sums to zero: money is only ever moved
 * between ledger accounts, never created or destroyed.
 */
export const MERCHANT_ACCOUNT_KINDS = ["available", "waiting_funds", "reserved", "available_at_psp"] as const;
export type MerchantAccountKind = (typeof MERCHANT_ACCOUNT_KINDS)[number];

/**
 * Who holds the money, in the books. `available` is money Arara holds for the merchant (card sales once
 * settled, boleto, PIX received through the sandbox): Arara's payouts send it. `available_at_psp` is money
 * that landed in the merchant's own account at its PSP (PIX received through the API Pix processor):
 * Arara never held it, so only a transfer from that PSP account (Efí's Pix Envio) may take it out, and
 * only a devolução there may refund from it. The two never mix: no journal moves money between them,
 * whatever the account's settings say at the time (ledger:check, rule 9).
 */
export type FundsAccount = "available" | "available_at_psp";

/**
 * Acquirer types (transactions.acquirer_type) whose payments land in the merchant's own PSP account:
 * lib/core/transaction-resource.ts's API_PIX_ACQUIRER (the kernel cannot import the domain; a unit
 * test, tests/unit/custody-names.test.ts, holds the two equal).
 */
export const MERCHANT_PSP_ACQUIRER_TYPES: readonly string[] = ["api-pix"];
/** The processor name of cash-outs sent by Efí's Pix Envio (lib/processors/payouts/efi.ts names its provider with it). */
export const EFI_PIX_ENVIO = "efi-pix-envio";
/** Payout processors (cash_outs.processor) that send from the merchant's own PSP account. */
export const MERCHANT_PSP_PAYOUT_PROCESSORS: readonly string[] = [EFI_PIX_ENVIO];

export function fundsAccountOfTransaction(t: { acquirerType: string }): FundsAccount {
  return MERCHANT_PSP_ACQUIRER_TYPES.includes(t.acquirerType) ? "available_at_psp" : "available";
}

export function fundsAccountOfCashOut(c: { processor: string }): FundsAccount {
  return MERCHANT_PSP_PAYOUT_PROCESSORS.includes(c.processor) ? "available_at_psp" : "available";
}

/** A cash-out's `source` as the API names it: `psp` (sent from the merchant's PSP account) or `arara`. */
export function cashOutSourceOf(c: { processor: string }): "arara" | "psp" {
  return fundsAccountOfCashOut(c) === "available_at_psp" ? "psp" : "arara";
}

/** Platform side: fees earned, and the clearing accounts of money in transit with acquirers and PSPs. */
export const PLATFORM_ACCOUNT_KINDS = ["platform_fees", "acquirer_clearing", "psp_clearing"] as const;
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

export const JOURNAL_KINDS = [
  "payment",
  "refund",
  "chargeback",
  "chargeback_reversal",
  "settlement",
  "cash_out",
  "cash_out_reversal",
  "adjustment",
  // Once per merchant, by migration 0021: what earlier versions kept in one pool, split between
  // available and available_at_psp (ledger:check, rule 9, starts after it).
  "custody_split",
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/** Statement entry types (docs/api.md, Balance and statement), plus the internal move of card funds when they settle. */
export const ENTRY_TYPES = [
  "payment",
  "fee",
  "refund",
  "chargeback",
  "chargeback_reversal",
  "cash_out",
  "cash_out_fee",
  "cash_out_reversal",
  "settlement",
  "adjustment",
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export type PostingLine =
  | { owner: "merchant"; account: MerchantAccountKind; entryType: EntryType; amount: number; mustStayNonNegative?: boolean }
  | { owner: "platform"; account: PlatformAccountKind; entryType: EntryType; amount: number };

export class UnbalancedJournalError extends Error {
  constructor(readonly sum: number) {
    super(`Journal postings sum to ${sum}, not zero.`);
    this.name = "UnbalancedJournalError";
  }
}

export function assertBalanced(lines: readonly PostingLine[]): void {
  let sum = 0;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.amount)) throw new Error(`Posting amount ${l.amount} is not an integer number of centavos.`);
    sum += l.amount;
  }
  if (sum !== 0) throw new UnbalancedJournalError(sum);
}

/** Drops zero lines (a zero fee), keeping the journal balanced. */
export function nonZero(lines: readonly PostingLine[]): PostingLine[] {
  return lines.filter((l) => l.amount !== 0);
}

/**
 * A journal as the rules of lib/domain/journals.ts build it: which postings, on whose books, for
 * which transaction or cash-out. The executor stamps it with the time and posts it.
 */
export type JournalDraft = {
  companyId: number;
  kind: JournalKind;
  description: string;
  transactionId?: number | null;
  cashOutId?: number | null;
  lines: PostingLine[];
};
