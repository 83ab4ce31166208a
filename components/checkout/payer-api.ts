"use client";

/** What the page's pay route answers: the charge the payer now follows. */
export type PayResult = { secureId: string; status: string; paymentMethod: string; refusedReason: string | null };
export type PayError = { status: number; code?: string; message?: string; errors?: { field: string; message: string }[] };

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
