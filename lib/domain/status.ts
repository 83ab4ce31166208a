/**
 * Transaction statuses and the one table of moves between them. Every status change in the
 * services goes through `assertTransition`, so a move missing here cannot happen anywhere.
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

export type TransitionCause =
  | "payment_processing" // the PSP or bank reports the payment in flight
  | "payment_received" // PIX settled or boleto cleared
  | "acquirer_approved" // an asynchronous acquirer approves a card held in processing
  | "acquirer_refused"
  | "refund" // full refund; a partial refund keeps the transaction paid
  | "chargeback"
  | "protest" // the merchant contests the chargeback
  | "protest_won"
  | "protest_lost";

export type Transition = {
  readonly from: TransactionStatus;
  readonly to: TransactionStatus;
  readonly methods: readonly PaymentMethod[];
  readonly cause: TransitionCause;
};

const ASYNC_METHODS = ["pix", "boleto"] as const;
const ALL_METHODS = PAYMENT_METHODS;

type Move = Omit<Transition, "from">;

// Keyed by every status (the mapped type makes a forgotten status a compile error); a status
// with an empty list is final. There is no fallback: a move not listed is refused.
const MOVES_FROM: { readonly [S in TransactionStatus]: readonly Move[] } = {
  pending: [
    { to: "processing", methods: ASYNC_METHODS, cause: "payment_processing" },
    { to: "paid", methods: ASYNC_METHODS, cause: "payment_received" },
  ],
  processing: [
    { to: "paid", methods: ASYNC_METHODS, cause: "payment_received" },
    { to: "paid", methods: ["credit_card"], cause: "acquirer_approved" },
    { to: "refused", methods: ["credit_card"], cause: "acquirer_refused" },
  ],
  paid: [
    { to: "refunded", methods: ALL_METHODS, cause: "refund" },
    { to: "chargedback", methods: ALL_METHODS, cause: "chargeback" },
  ],
  // `approved` is an event kind, never a stored status (docs/api.md): nothing moves into or out of it.
  approved: [],
  refused: [],
  refunded: [],
  chargedback: [{ to: "in_protest", methods: ALL_METHODS, cause: "protest" }],
  in_protest: [
    { to: "paid", methods: ALL_METHODS, cause: "protest_won" },
    { to: "chargedback", methods: ALL_METHODS, cause: "protest_lost" },
  ],
};

export const TRANSITIONS: readonly Transition[] = TRANSACTION_STATUSES.flatMap((from) =>
  MOVES_FROM[from].map((move) => ({ from, ...move })),
);

/**
 * The status a transaction is created in. PIX and boleto wait for the payer; a card is decided
 * by the acquirer before the response (paid or refused), or left processing by an asynchronous one.
 */
export const CREATION_STATUSES: { readonly [M in PaymentMethod]: readonly TransactionStatus[] } = {
  pix: ["pending"],
  boleto: ["pending"],
  credit_card: ["paid", "refused", "processing"],
};

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

export function findTransition(
  method: PaymentMethod,
  from: TransactionStatus,
  to: TransactionStatus,
): Transition | undefined {
  return TRANSITIONS.find((t) => t.from === from && t.to === to && t.methods.includes(method));
}

export function canTransition(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): boolean {
  return findTransition(method, from, to) !== undefined;
}

export function assertTransition(method: PaymentMethod, from: TransactionStatus, to: TransactionStatus): Transition {
  const transition = findTransition(method, from, to);
  if (!transition) throw new TransitionError(method, from, to);
  return transition;
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
