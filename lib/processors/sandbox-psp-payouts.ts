/**
 * PIX Out through the sandbox PSP. Nothing leaves the building: the transfer is accepted at once,
 * "settles" after SANDBOX_PSP_DELAY_MS, and completes with an end-to-end id, except for the test
 * keys below, which fail so that integrators can exercise their failure path (the amount and fee
 * come back to the available balance).
 *
 * A real PSP would implement PixPayoutProvider and be chosen by the cash-out's `processor`.
 */
import { randomBase62 } from "@/lib/crypto";
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";

export type PayoutInput = { cashOutId: number; amount: number; pixKey: string; pixKeyType: string; now: Date };
export type PayoutOutcome = { status: "completed"; end2endId: string } | { status: "failed"; reason: string };

export interface PixPayoutProvider {
  name: string;
  /** Result of a transfer accepted earlier, asked once its time has come. */
  outcome(input: PayoutInput): Promise<PayoutOutcome>;
}

/** ISPB printed in the sandbox's end-to-end ids (not a real institution's). */
export const SANDBOX_PSP_ISPB = "99999999";

/** Keys (in DICT form) whose cash-outs fail in the sandbox, with the reason given. */
export const SANDBOX_FAILING_PIX_KEYS: Readonly<Record<string, string>> = {
  "fail@arara.dev": "The receiving institution rejected the transfer (sandbox test key).",
  "fa11ed00-0000-4000-8000-000000000000": "The PIX key is not registered in the DICT (sandbox test key).",
};

export const sandboxPixPayouts: PixPayoutProvider = {
  name: "sandbox",
  async outcome(input) {
    const reason = SANDBOX_FAILING_PIX_KEYS[input.pixKey];
    if (reason) return { status: "failed", reason };
    return { status: "completed", end2endId: makeEnd2EndId(SANDBOX_PSP_ISPB, input.now, randomBase62(11)) };
  },
};

export function payoutProviderFor(processor: string): PixPayoutProvider {
  if (processor === sandboxPixPayouts.name) return sandboxPixPayouts;
  throw new Error(`No PIX payout provider named "${processor}" is registered.`);
}
