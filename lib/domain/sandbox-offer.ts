import { isPastExpiry } from "./expiry";
import { canSandboxMove, SANDBOX_TEST_MOVES, type PaymentMethod, type TransactionStatus } from "./status";

/**
 * The sandbox moves the dashboard offers on a transaction: none in live mode, none for a charge another
 * processor made (a PIX through the merchant's own PSP: the API's move refuses it too); the table's test
 * moves except a refund (it has its own form with a confirmation step); and no payment (nor
 * processing) once a pending PIX or boleto is past its expiry, since the sandbox refuses to pay it.
 */
export function offeredSandboxMoves(
  t: { livemode: boolean; acquirerType: string; paymentMethod: string; status: string; expiresAt: Date | null },
  now: Date,
): TransactionStatus[] {
  if (t.livemode || t.acquirerType !== "sandbox") return [];
  const method = t.paymentMethod as PaymentMethod;
  const status = t.status as TransactionStatus;
  const expired = isPendingPastExpiry(t, now);
  return SANDBOX_TEST_MOVES.filter((to) => to !== "refunded" && canSandboxMove(method, status, to)).filter(
    (to) => !(expired && (to === "paid" || to === "processing")),
  );
}

/** A pending charge whose expiry has passed: it can no longer be paid. */
export function isPendingPastExpiry(t: { status: string; expiresAt: Date | null }, now: Date): boolean {
  return t.status === "pending" && isPastExpiry(t.expiresAt, now);
}
