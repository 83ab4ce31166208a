"use client";

/**
 * Whether the page was reached by the payer's own action on a form (a pay tap that moved to the new
 * charge's page, "see the confirmed payment"): then the new view's heading takes focus, so a screen
 * reader reads "Pagamento recusado" or "Pague com PIX" rather than starting again at the top.
 */
let arriving = false;

export function markArrival(): void {
  arriving = true;
}

export function takeArrival(): boolean {
  const was = arriving;
  arriving = false;
  return was;
}
