import type { CashOutRow } from "@/lib/core/rows";
import { cashOutEventData } from "@/lib/webhooks/payloads";

export type { CashOutRow };

/** The cash-out as the API returns it: the same snapshot the `cash_out` webhook's `data` carries. */
export const cashOutResource = cashOutEventData;
export type CashOutResource = ReturnType<typeof cashOutResource>;
