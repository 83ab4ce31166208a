import type { Job } from "@/lib/jobs";
import { getLogger } from "@/lib/logger";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";

const INTERVAL_MS = 15_000;

/**
 * The API Pix reconciliation loop (reconcile.ts): every 15 s, at once again after a full batch;
 * the stop function waits for the tick in flight. Safe on any number of instances (leases).
 */
export const apiPixReconcileJob: Job = {
  name: "api-pix-reconcile",
  enabled: () => true,
  start: () => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let inFlight: Promise<void> = Promise.resolve();
    const run = async () => {
      let busy = false;
      try {
        const r = await reconcileApiPix({ limit: 50 });
        busy = r.charges + r.refunds >= 50;
      } catch (err) {
        getLogger().error({ job: "api-pix-reconcile", err: err instanceof Error ? err.name : "error" }, "background job tick failed");
      }
      if (!stopped) schedule(busy ? 0 : INTERVAL_MS);
    };
    const schedule = (ms: number) => {
      timer = setTimeout(() => {
        inFlight = run();
      }, ms);
      timer.unref?.();
    };
    schedule(INTERVAL_MS);
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    };
  },
};
