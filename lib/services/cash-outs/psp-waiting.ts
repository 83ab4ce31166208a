/**
 * Why a cash-out sent through a PSP (Efí's Pix Envio) is still waiting, and the bounds the cash-out
 * job applies to it (advance-cash-outs.ts). Read from its `psp_payouts` row, written by the job.
 *
 * - A `pending` cash-out whose every attempt is known never to have left Arara (the PSP settings could
 *   not make a client, the access token was refused) and whose settings have been incomplete for
 *   NOT_CONFIGURED_FAIL_MS without interruption is failed: amount and fee back to available. One that
 *   may have reached the PSP is never failed on that ground (the PSP may still pay it out): it waits,
 *   shown with its reason.
 * - A `processing` cash-out (the PSP accepted it) whose read-back answers 404 is never failed: it is
 *   asked about less and less often (a tenth of the time it has not been found, 5 s to 15 min), and
 *   shown as waiting for the PSP's confirmation once that lasts NOT_FOUND_VISIBLE_MS.
 */
import type { pspPayouts } from "@/lib/db/schema";
import { PAYOUT_NOT_CONFIGURED } from "@/lib/processors/payouts/types";

export type PspPayoutRow = typeof pspPayouts.$inferSelect;

/**
 * How long the settings of a never-sent cash-out may stay incomplete before it is failed. Long enough
 * to replace a certificate or fix a credential without losing the cash-out (the job keeps trying
 * meanwhile, at 5 s, 15 s, 1 min, 5 min, then every 15 min); short enough that money that can no
 * longer be sent that way comes back to available the same hour, for the merchant to use otherwise.
 */
export const NOT_CONFIGURED_FAIL_MS = 60 * 60_000;
/** How long the PSP may not show a transfer it accepted before the cash-out is shown as waiting for it. */
export const NOT_FOUND_VISIBLE_MS = 10 * 60_000;
/** The longest wait between two read-backs of a transfer the PSP does not show. */
export const NOT_FOUND_MAX_POLL_MS = 15 * 60_000;

/** `lastError` codes written by the job itself (the others are the PSP client's, e.g. `timeout`). */
export const NOT_CONFIGURED = PAYOUT_NOT_CONFIGURED;
export const CONFIRMATION_PENDING = "confirmation_pending";

export type CashOutWaiting = {
  /** `not_configured`, `confirmation_pending`, or the PSP error's code (`timeout`, `psp_unavailable`, ...). */
  code: string;
  /** Why, in Portuguese, for the merchant. */
  message: string;
  /** Since when (ISO 8601). */
  since: string;
  /** When the cash-out will be failed (money back to available) if nothing changes; null: never on this ground. */
  failsAt: string | null;
  /** An attempt may have reached the PSP: the transfer may still be made there, so it is never returned automatically. */
  mayHaveReachedPsp: boolean;
};

/** `lastError` is written `code: sentence`. */
export function lastErrorParts(lastError: string): { code: string; message: string } {
  const m = /^([a-z0-9_]{1,60}): ([\s\S]*)$/.exec(lastError);
  return m ? { code: m[1], message: m[2] } : { code: "psp_error", message: lastError };
}

/** The code of a stored `lastError`, or null. */
export const lastErrorCode = (lastError: string | null) => (lastError === null ? null : lastErrorParts(lastError).code);

/** Why a cash-out in flight waits on its PSP, or null (nothing holds it, it is over, or it is the sandbox's). */
export function cashOutWaiting(c: { status: string }, p: PspPayoutRow | null | undefined): CashOutWaiting | null {
  if (!p?.lastError || (c.status !== "pending" && c.status !== "processing")) return null;
  const { code, message } = lastErrorParts(p.lastError);
  const since = p.lastErrorSince ?? p.updatedAt;
  const reached = c.status === "processing" || p.mayHaveReachedPsp;
  const failsAt =
    c.status === "pending" && code === NOT_CONFIGURED && !reached && p.notConfiguredSince ? new Date(p.notConfiguredSince.getTime() + NOT_CONFIGURED_FAIL_MS).toISOString() : null;
  return { code, message, since: since.toISOString(), failsAt, mayHaveReachedPsp: reached };
}
