/**
 * A refused card's reason as the /v1 dialect shows it: the family's clients read an object
 * (`refusedReason?.description`, `refusedReason?.message`), where /api/v1 keeps the code as a string.
 * The words are the ones the hosted checkout shows the payer for the same code (components/checkout/i18n.ts,
 * `card.refused`, takes them from here), since a store shows them to its own payer.
 */
import type { TransactionRow } from "./rows";

/** Portuguese, for the payer, by refusal code (lib/processors/types.ts REFUSAL_REASONS). */
export const REFUSAL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  card_declined: "O banco emissor recusou o pagamento. Tente outro cartão ou fale com seu banco.",
  insufficient_funds: "Limite ou saldo insuficiente. Tente outro cartão.",
  expired_card: "O cartão está vencido. Tente outro cartão.",
  processing_error: "Houve um erro ao processar o pagamento. Tente novamente ou use outro cartão.",
};

/** For a code without words of its own. */
export const REFUSAL_DESCRIPTION_OTHER = "O pagamento não foi aprovado. Tente outro cartão.";

export type V1RefusedReason = {
  /** Arara's code, the string /api/v1 shows (card_declined, insufficient_funds, expired_card, processing_error). */
  code: string;
  /** What the acquirer answered: the acquirers Arara talks to answer with these codes. */
  acquirerCode: string;
  description: string;
  /** The same words as description (some family clients read `message`). */
  message: string;
  /** When the card was refused (ISO 8601). */
  createdAt: string;
};

/**
 * The refusal as an object, or null when the charge was not refused. When: the row's last change,
 * since a refused charge is final (no move leaves `refused`): at creation for a card refused at once,
 * the acquirer's answer for one refused after `processing`. (The one later write a refused charge can
 * get is a delivery record set back to `waiting`, which also sets updatedAt.)
 */
export function v1RefusedReason(t: Pick<TransactionRow, "refusedReason" | "updatedAt">): V1RefusedReason | null {
  if (!t.refusedReason) return null;
  const description = REFUSAL_DESCRIPTIONS[t.refusedReason] ?? REFUSAL_DESCRIPTION_OTHER;
  return { code: t.refusedReason, acquirerCode: t.refusedReason, description, message: description, createdAt: t.updatedAt.toISOString() };
}
