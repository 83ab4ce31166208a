"use client";

import { CardError } from "./CardFields";
import type { Dictionary } from "./i18n";

/** What the page's pay route answers: the charge the payer now follows. */
export type PayResult = { secureId: string; status: string; paymentMethod: string; refusedReason: string | null };
export type PayError = { status: number; code?: string; message?: string; errors?: { field: string; message: string }[] };

/**
 * What to tell the payer when a pay tap failed for a reason the form has no words of its own for, and
 * whether the payment may have gone through anyway (`lost`: the page then offers to look first).
 * - an exception: the card's tokenization refused (nothing was sent to pay), or the connection dropped
 *   (the pay request may have reached the server);
 * - the pay route's 5xx: a gateway timeout or a crash can come after the card was charged;
 * - 429: turned away before anything was done.
 */
export function failure(t: Dictionary, err: { thrown: unknown } | { status: number }): { message: string; lost: boolean } {
  if ("thrown" in err) {
    const e = err.thrown;
    if (!(e instanceof CardError)) return { message: t.errors.network, lost: true };
    return { message: e.message === "invalid" ? t.errors.fix : e.message === "busy" ? t.errors.tooMany : t.errors.generic, lost: false };
  }
  if (err.status >= 500) return { message: t.errors.server, lost: true };
  if (err.status === 429) return { message: t.errors.tooMany, lost: false };
  return { message: t.errors.generic, lost: false };
}

/** POSTs to /checkout/{secureId}/pay. Only the payer's choice, their details and the card token. */
export async function postPay(secureId: string, body: Record<string, unknown>): Promise<{ ok: true; data: PayResult } | { ok: false; error: PayError }> {
  const res = await fetch(`/checkout/${secureId}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as { data?: PayResult; code?: string; message?: string; errors?: PayError["errors"] } | null;
  if (res.ok && json?.data) return { ok: true, data: json.data };
  return { ok: false, error: { status: res.status, code: json?.code, message: json?.message, errors: json?.errors } };
}
