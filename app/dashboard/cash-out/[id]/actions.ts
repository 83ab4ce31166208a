"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { redeliverEvent } from "@/lib/services/webhooks/redeliver-event";
import { skipWebhookEvent } from "@/lib/services/webhooks/skip-webhook-event";
import { parseId } from "@/lib/core/ids";

const idOf = (v: FormDataEntryValue | null) => (typeof v === "string" && parseId(v) !== null ? v : null);

/**
 * The cash-out page's webhook buttons: the same services as the transaction page's (the event is
 * looked up in the signed-in account; another account's event id is not found). They only send or
 * give up a notification: no money moves.
 */

/** Sends a webhook event of the cash-out again now (logged as a manual attempt). */
export async function redeliverCashOutEventAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const eventId = idOf(formData.get("eventId"));
    const cashOutId = idOf(formData.get("cashOutId"));
    if (!eventId) return { status: "error", message: "Evento inválido." };
    const r = await redeliverEvent(ctx, eventId);
    if (cashOutId) revalidatePath(`/dashboard/cash-out/${cashOutId}`);
    const last = r.attempts[r.attempts.length - 1];
    return r.delivered
      ? { status: "ok", message: `Reenviado com sucesso (HTTP ${last?.httpStatus ?? "2xx"}).` }
      : {
          status: "error",
          message: `O reenvio falhou: ${last?.httpStatus ? `HTTP ${last.httpStatus}` : (last?.error ?? "sem resposta")}.`,
        };
  });
}

/** Gives a pending or failed webhook event of the cash-out up, releasing the events queued behind it. */
export async function skipCashOutEventAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const eventId = idOf(formData.get("eventId"));
    const cashOutId = idOf(formData.get("cashOutId"));
    if (!eventId) return { status: "error", message: "Evento inválido." };
    await skipWebhookEvent(ctx, eventId);
    if (cashOutId) revalidatePath(`/dashboard/cash-out/${cashOutId}`);
    return { status: "ok", message: "Evento abandonado; os seguintes seguem." };
  });
}
