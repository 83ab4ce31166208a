import { brandErrorClass } from "@/lib/core/errors";
/**
 * PIX Out through a PSP, in two calls so that nothing is decided while a database row is locked:
 * `send` hands the transfer to the PSP (idempotent by `idEnvio`: sending the same id again never
 * makes a second transfer), then `status` is asked until the PSP says it completed or failed.
 *
 * A PSP that cannot be reached, times out or answers 5xx throws PayoutUnavailableError: nothing is
 * decided, the step is tried again later with the same idEnvio.
 */

export type PayoutSendInput = {
  companyId: number;
  cashOutId: number;
  /** Our id of the transfer at the PSP (letters and digits, at most 35): the same on every retry. */
  idEnvio: string;
  amount: number;
  pixKey: string;
  pixKeyType: string;
  /** The paying account's PIX key at the PSP (Efí's `pagador.chave`); null for the sandbox. */
  payerKey: string | null;
  now: Date;
};

export type PayoutSendResult = { status: "accepted"; reference: string } | { status: "rejected"; reason: string };

export type PayoutStatusInput = Omit<PayoutSendInput, "payerKey">;

/**
 * `notFound`: the PSP does not show the transfer it accepted (its read-back answered 404). Nothing is
 * decided on it: the PSP took the transfer, and may still make it.
 */
export type PayoutStatus = { status: "pending"; notFound?: boolean } | { status: "completed"; end2endId: string } | { status: "failed"; reason: string };

export interface PixPayoutProvider {
  /** Stored in the cash-out's `processor`. */
  name: string;
  send(input: PayoutSendInput): Promise<PayoutSendResult>;
  status(input: PayoutStatusInput): Promise<PayoutStatus>;
  /** True when the provider answers from memory (the sandbox): its step is then one database transaction. */
  inMemory?: boolean;
  /** How long after an accepted send, or a "still processing" answer, the PSP is asked again. */
  pollDelayMs(): number;
}

/** Code of a PayoutUnavailableError thrown because the account's PSP settings cannot make a client. */
export const PAYOUT_NOT_CONFIGURED = "not_configured";

/**
 * The PSP could not be asked (unreachable, timeout, 5xx, credentials refused, settings incomplete):
 * try again later. `mayHaveReachedPsp`: whether this attempt may have reached the PSP (true unless it
 * is known never to have left: the settings could not make a client, the access token was refused
 * before the send). A send whose answer was lost may have been made: the caller must then never
 * return the money on any later ground but the PSP's own word.
 */
export class PayoutUnavailableError extends Error {
  readonly mayHaveReachedPsp: boolean;
  constructor(
    message: string,
    readonly code: string,
    opts: { mayHaveReachedPsp?: boolean } = {},
  ) {
    super(message);
    this.name = "PayoutUnavailableError";
    this.mayHaveReachedPsp = opts.mayHaveReachedPsp ?? true;
  }
}
brandErrorClass(PayoutUnavailableError, "PayoutUnavailableError");
