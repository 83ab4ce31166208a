/**
 * PIX Out through the sandbox PSP. Nothing leaves the building: the transfer is accepted at once,
 * "settles" after SANDBOX_PSP_DELAY_MS, and completes with an end-to-end id, except for the test
 * keys below, which fail so that integrators can exercise their failure path (the amount and fee
 * come back to the available balance).
 */
import { randomBase62 } from "@/lib/crypto";
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";
import { getEnv } from "@/lib/env";
import type { PixPayoutProvider } from "./types";

/** ISPB printed in the sandbox's end-to-end ids (not a real institution's). */
export const SANDBOX_PSP_ISPB = "99999999";

/** Keys (in DICT form) whose cash-outs fail in the sandbox, with the reason given. */
export const SANDBOX_FAILING_PIX_KEYS: Readonly<Record<string, string>> = {
  "fail@arara.dev": "The receiving institution rejected the transfer (sandbox test key).",
  "fa11ed00-0000-4000-8000-000000000000": "The PIX key is not registered in the DICT (sandbox test key).",
};

export const sandboxPixPayouts: PixPayoutProvider = {
  name: "sandbox",
  inMemory: true,
  async send(input) {
    return { status: "accepted", reference: input.idEnvio };
  },
  async status(input) {
    const reason = SANDBOX_FAILING_PIX_KEYS[input.pixKey];
    if (reason) return { status: "failed", reason };
    return { status: "completed", end2endId: makeEnd2EndId(SANDBOX_PSP_ISPB, input.now, randomBase62(11)) };
  },
  pollDelayMs: () => getEnv().sandboxPspDelayMs,
};
