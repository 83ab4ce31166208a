import type { cashOuts } from "@/lib/db/schema";

export type CashOutRow = typeof cashOuts.$inferSelect;

/** The cash-out as the API returns it and as the `cash_out` webhook's `data` carries it. */
export function cashOutResource(c: CashOutRow) {
  return {
    id: c.id,
    status: c.status,
    amount: c.amount,
    fee: c.fee,
    pixKey: c.pixKey,
    pixKeyType: c.pixKeyType,
    end2endId: c.end2endId,
    failReason: c.failReason,
    description: c.description,
    externalRef: c.externalRef,
    createdAt: c.createdAt.toISOString(),
    /** Set when the transfer completed; null while in flight and for a failed one. */
    completedAt: c.completedAt ? c.completedAt.toISOString() : null,
  };
}
export type CashOutResource = ReturnType<typeof cashOutResource>;
