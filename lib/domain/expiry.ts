/**
 * The one "expired" rule: a charge, a boleto or a payment link is expired from its expiry instant
 * on (`expiresAt <= now`). No expiry, never expired.
 */
export function isPastExpiry(expiresAt: Date | null | undefined, now: Date): boolean {
  return expiresAt != null && expiresAt.getTime() <= now.getTime();
}
