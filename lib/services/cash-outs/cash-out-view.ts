import type { CashOutRow } from "@/lib/core/rows";
import { cashOutEventData } from "@/lib/webhooks/payloads";
import { cashOutWaiting, type CashOutWaiting, type PspPayoutRow } from "./psp-waiting";

export type { CashOutRow };

/** A cash-out as its reads return it: with its `psp_payouts` row when it is sent through a PSP (null otherwise). */
export type CashOutWithPsp = CashOutRow & { psp?: PspPayoutRow | null };

/**
 * The cash-out as the API returns it: the same snapshot the `cash_out` webhook's `data` carries, and,
 * on the API's reads, `waiting`: why a cash-out in flight is still waiting on its PSP (null when
 * nothing holds it). Webhooks do not carry `waiting` (it is not a change of status).
 */
export function cashOutResource(c: CashOutWithPsp): ReturnType<typeof cashOutEventData> & { waiting?: CashOutWaiting | null } {
  return { ...cashOutEventData(c), waiting: cashOutWaiting(c, c.psp) };
}
export type CashOutResource = ReturnType<typeof cashOutResource>;
