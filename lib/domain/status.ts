/**
 * Transaction statuses and payment methods. The moves between them are the table of
 * lib/domain/transitions.ts; every status change goes through the executor, which reads it.
 *
 * The family's API shows only creation and pending -> paid; Arara adds refunds, chargebacks and
 * protests (docs/api.md, Statuses and events). Card approval is stored as `paid` and notified as `approved` (see webhookEventKind).
 */

export const TRANSACTION_STATUSES = [
  "pending",
  "processing",
  "paid",
  "approved",
  "refused",
  "refunded",
  "chargedback",
  "in_protest",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const PAYMENT_METHODS = ["pix", "boleto", "credit_card"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function isTransactionStatus(s: string): s is TransactionStatus {
  return (TRANSACTION_STATUSES as readonly string[]).includes(s);
}

export function isPaymentMethod(s: string): s is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(s);
}

// The moves between statuses, their causes and their money are one table: lib/domain/transitions.ts.
export {
  assertTransition,
  canTransition,
  CREATION_STATUSES,
  findTransition,
  TRANSITIONS,
  type Transition,
  type TransitionCause,
} from "./transitions";
import { canTransition, CREATION_STATUSES } from "./transitions";

export class TransitionError extends Error {
  readonly from: TransactionStatus | null;
  readonly to: TransactionStatus;
  readonly method: PaymentMethod;

  constructor(method: PaymentMethod, from: TransactionStatus | null, to: TransactionStatus) {
    super(
      from === null
        ? `A ${method} transaction cannot be created as ${to}`
        : `A ${method} transaction cannot move from ${from} to ${to}`,
    );
    this.name = "TransitionError";
    this.method = method;
    this.from = from;
    this.to = to;
  }
}

/** The spec's event kinds are the eight status names. */
export type WebhookEventKind = TransactionStatus;

/**
 * `data.status` of the webhook for a status change. A card entering `paid` (approval at creation,
 * by an asynchronous acquirer, or back from a won protest) is sent as `approved`, the spec's event
 * kind for cards, while the transaction itself reads `paid`. Every other change sends its status.
 * At creation the status must be one the method can be created in.
 */
export function webhookEventKind(
  method: PaymentMethod,
  toStatus: TransactionStatus,
  options: { isCreation: boolean },
): WebhookEventKind {
  if (options.isCreation && !CREATION_STATUSES[method].includes(toStatus)) {
    throw new TransitionError(method, null, toStatus);
  }
  return method === "credit_card" && toStatus === "paid" ? "approved" : toStatus;
}

/**
 * Targets `PUT /api/v1/transactions/{id}/test` accepts in the sandbox: pay a PIX, clear a boleto,
 * refund, chargeback, protest (docs/api.md, Transactions), plus processing and refused for cards held by an
 * asynchronous acquirer. The move itself must still be in the table.
 */
export const SANDBOX_TEST_MOVES: readonly TransactionStatus[] = [
  "processing",
  "paid",
  "refused",
  "refunded",
  "chargedback",
  "in_protest",
];

export function canSandboxMove(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): boolean {
  return SANDBOX_TEST_MOVES.includes(to) && canTransition(method, from, to);
}
