import { CASH_OUT_CAUSES, MONEY_TABLE } from "./transitions";

/**
 * Cash-out (PIX Out) statuses and the moves between them. A request is `pending` until the PSP
 * takes it (`processing`), then ends `completed` (with an end-to-end id) or `failed` (with a
 * reason; the amount and fee go back to the merchant). Like the transaction table, a move not
 * listed here cannot happen.
 */
export const CASH_OUT_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export type CashOutStatus = (typeof CASH_OUT_STATUSES)[number];

// Derived from the money table (lib/domain/transitions.ts), where each cash-out move has its cause.
const MOVES: { readonly [S in CashOutStatus]: readonly CashOutStatus[] } = {
  pending: cashOutMovesFrom("pending"),
  processing: cashOutMovesFrom("processing"),
  completed: cashOutMovesFrom("completed"),
  failed: cashOutMovesFrom("failed"),
};

function cashOutMovesFrom(from: CashOutStatus): CashOutStatus[] {
  return CASH_OUT_CAUSES.flatMap((c) => MONEY_TABLE[c].moves.filter((m) => m.from === from).map((m) => m.to));
}

export function isCashOutStatus(s: string): s is CashOutStatus {
  return (CASH_OUT_STATUSES as readonly string[]).includes(s);
}

export function canMoveCashOut(from: CashOutStatus, to: CashOutStatus): boolean {
  return MOVES[from].includes(to);
}

export function isFinalCashOutStatus(s: CashOutStatus): boolean {
  return MOVES[s].length === 0;
}

/** Largest single cash-out: R$ 1.000.000,00, the same ceiling as a charge. */
export const MAX_CASH_OUT_AMOUNT = 100_000_000;

/**
 * Names other gateways of the family use for PIX key types, mapped to the DICT names
 * validatePixKey takes. Lower-cased before lookup.
 */
const KEY_TYPE_ALIASES: Record<string, string> = {
  random: "evp",
  random_key: "evp",
  randomkey: "evp",
  aleatoria: "evp",
  chave_aleatoria: "evp",
  "e-mail": "email",
  telefone: "phone",
  celular: "phone",
  mobile: "phone",
};

export function canonicalPixKeyType(type: string | null | undefined): string | undefined {
  if (type === undefined || type === null || type.trim() === "") return undefined;
  const t = type.trim().toLowerCase();
  return KEY_TYPE_ALIASES[t] ?? t;
}

/** Which money a cash-out sends: what Arara holds (`available`), or what sits at the merchant's own PSP (`availableAtPsp`). */
export const CASH_OUT_SOURCES = ["arara", "psp"] as const;
export type CashOutSource = (typeof CASH_OUT_SOURCES)[number];
