import { revalidatePath } from "next/cache";
import type { ActionState } from "@/lib/auth/action";
import type { DashboardContext } from "@/lib/auth/session";
import { parseId } from "@/lib/core/ids";
import { redeliverEvent } from "@/lib/services/webhooks/redeliver-event";
import { skipWebhookEvent } from "@/lib/services/webhooks/skip-webhook-event";
import { attemptErrorText, webhookActionRefusal } from "@/components/dashboard/webhooks/attempt-text";

/** A refusal of the webhook services said in Portuguese; anything else goes on to dashboardAction. */
async function inPortuguese<T>(action: "redeliver" | "skip", run: () => Promise<T>): Promise<{ done: T } | { refused: ActionState }> {
  try {
    return { done: await run() };
  } catch (err) {
    const message = webhookActionRefusal(err, action);
    if (message === null) throw err;
    return { refused: { status: "error", message } };
  }
}

/**
 * The webhook buttons of the transaction and cash-out pages (components/dashboard/webhooks/): the
 * form sends the event's id and its subject's (`subjectField`: transactionId or cashOutId), and the
 * subject's page is drawn again (`pageOf`). The event is looked up in the signed-in account: another
 * account's id is not found. They only send or give up a notification; no money moves.
 */
type Subject = { subjectField: "transactionId" | "cashOutId"; pageOf: (id: string) => string };

const idOf = (v: FormDataEntryValue | null) => (typeof v === "string" && parseId(v) !== null ? v : null);

function redraw(formData: FormData, subject: Subject): void {
  const id = idOf(formData.get(subject.subjectField));
  if (id) revalidatePath(subject.pageOf(id));
}

/** Sends the form's webhook event again now (logged as a manual attempt). */
export async function redeliverFromForm(ctx: DashboardContext, formData: FormData, subject: Subject): Promise<ActionState> {
  const eventId = idOf(formData.get("eventId"));
  if (!eventId) return { status: "error", message: "Evento inválido." };
  const outcome = await inPortuguese("redeliver", () => redeliverEvent(ctx, eventId));
  redraw(formData, subject);
  if ("refused" in outcome) return outcome.refused;
  const r = outcome.done;
  const last = r.attempts[r.attempts.length - 1];
  return r.delivered
    ? { status: "ok", message: `Reenviado com sucesso (HTTP ${last?.httpStatus ?? "2xx"}).` }
    : { status: "error", message: `O reenvio falhou: ${last?.error ? attemptErrorText(last.error) : last?.httpStatus ? `HTTP ${last.httpStatus}` : "sem resposta"}.` };
}

/** Gives the form's pending or failed webhook event up, releasing the events queued behind it. */
export async function skipFromForm(ctx: DashboardContext, formData: FormData, subject: Subject): Promise<ActionState> {
  const eventId = idOf(formData.get("eventId"));
  if (!eventId) return { status: "error", message: "Evento inválido." };
  const outcome = await inPortuguese("skip", () => skipWebhookEvent(ctx, eventId));
  redraw(formData, subject);
  return "refused" in outcome ? outcome.refused : { status: "ok", message: "Evento abandonado; os seguintes seguem." };
}
