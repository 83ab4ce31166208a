import type { Job } from "@/lib/jobs";
import { getLogger } from "@/lib/logger";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { settleDueCardFunds } from "@/lib/services/transactions/settle-card-funds";
import { getEnv } from "@/lib/env";
import { sendDueReceipts } from "@/lib/mail/receipt";

const BATCH = 100;

/**
 * Runs `tick` every `intervalMs` (at once again when it filled a batch), never two at a time. The
 * stop function waits for the tick in flight, so a shutdown never cuts a step in half (each step
 * is its own database transaction anyway).
 */
export function pollingLoop(name: string, intervalMs: number, tick: () => Promise<number>): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const run = async () => {
    let done = 0;
    try {
      done = await tick();
    } catch (err) {
      getLogger().error({ job: name, err: err instanceof Error ? err.message : String(err) }, "background job tick failed");
    }
    if (!stopped) schedule(done >= BATCH ? 0 : intervalMs);
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      inFlight = run();
    }, ms);
    timer.unref?.();
  };
  schedule(0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}

/** Card funds reaching their settlement date move from waiting funds to available. */
export const cardSettlementJob: Job = {
  name: "card-settlement",
  enabled: () => true,
  start: () => pollingLoop("card-settlement", 5_000, () => settleDueCardFunds({ limit: BATCH })),
};

/** Cash-outs: pending -> processing -> completed | failed, through the sandbox or Efí (the job keeps its first name). */
export const sandboxPayoutsJob: Job = {
  name: "sandbox-psp-payouts",
  enabled: () => true,
  start: () => pollingLoop("sandbox-psp-payouts", 500, () => advanceDueCashOuts({ limit: BATCH })),
};

/** The payer's e-mail receipts (only with SMTP_URL set). */
export const receiptJob: Job = {
  name: "payer-receipts",
  enabled: () => Boolean(getEnv().smtpUrl),
  start: () => pollingLoop("payer-receipts", 2_000, () => sendDueReceipts({ limit: BATCH })),
};
