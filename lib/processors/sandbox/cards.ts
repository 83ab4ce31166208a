import { randomInt } from "node:crypto";
import type { CardBrand } from "@/lib/domain/card/brand";
import type { AuthorizeInput, AuthorizeResult, CardAcquirer, RefusalReason } from "../types";

export type SandboxCardOutcome = "approved" | RefusalReason;

/**
 * The sandbox acquirer decides by card number. Any other card that passes tokenization (Luhn, an
 * accepted brand, a future expiry) is approved; a card past its expiry at charge time is refused
 * as `expired_card`. Use any holder name, any future expiry and a CVV of the brand's length.
 */
export const SANDBOX_TEST_CARDS: readonly { number: string; brand: CardBrand; outcome: SandboxCardOutcome; description: string }[] = [
  { number: "4111111111111111", brand: "visa", outcome: "approved", description: "Approved" },
  { number: "4242424242424242", brand: "visa", outcome: "approved", description: "Approved" },
  { number: "5555555555554444", brand: "mastercard", outcome: "approved", description: "Approved" },
  { number: "4000000000000002", brand: "visa", outcome: "card_declined", description: "Refused by the issuer" },
  { number: "4000000000009995", brand: "visa", outcome: "insufficient_funds", description: "Refused: insufficient funds" },
  { number: "4000000000000069", brand: "visa", outcome: "expired_card", description: "Refused: expired card" },
  { number: "4000000000000119", brand: "visa", outcome: "processing_error", description: "Refused: processing error at the acquirer" },
];

const OUTCOME_BY_NUMBER = new Map(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome]));

export function sandboxCardOutcome(number: string): SandboxCardOutcome {
  return OUTCOME_BY_NUMBER.get(number) ?? "approved";
}

function expiredAt(card: { expirationMonth: string; expirationYear: string }, now: Date): boolean {
  // Good through the last day of the expiration month (UTC, as tokenization checks it).
  const firstDayAfter = Date.UTC(Number(card.expirationYear), Number(card.expirationMonth), 1);
  return now.getTime() >= firstDayAfter;
}

export const sandboxCardAcquirer: CardAcquirer = {
  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    const outcome = expiredAt(input.card, input.now) ? "expired_card" : sandboxCardOutcome(input.card.number);
    if (outcome !== "approved") return { approved: false, reason: outcome, authorizationCode: null };
    return { approved: true, authorizationCode: randomInt(0, 1_000_000).toString().padStart(6, "0") };
  },
};
