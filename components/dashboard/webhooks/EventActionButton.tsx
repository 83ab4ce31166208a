"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "@/components/dashboard/transaction/form-action";
import ui from "@/components/dashboard/ui.module.css";
import { subjectField, subjectNoun, type WebhookSubject } from "./subject";

export type EventActionProps = { eventId: number; subject: WebhookSubject; action: FormAction };

/**
 * A small form that runs one action on one webhook event of a transaction or a cash-out and says how
 * it went; with `confirm`, it asks first and does nothing when the merchant says no. The subject's id
 * goes along (`transactionId` or `cashOutId`) so the action renders its page again.
 */
export function EventActionButton({
  eventId,
  subject,
  action,
  label,
  pendingLabel,
  confirm,
}: EventActionProps & { label: string; pendingLabel: string; confirm?: string }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(action, { status: "idle" });
  return (
    <form
      action={formAction}
      onSubmit={
        confirm
          ? (e) => {
              if (!window.confirm(confirm)) e.preventDefault();
            }
          : undefined
      }
      style={{ display: "inline-flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}
    >
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name={subjectField(subject)} value={subject.id} />
      <button type="submit" className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
      {state.status !== "idle" && (
        <span className={state.status === "ok" ? ui.fieldOk : ui.fieldError} role="status">
          {state.message}
        </span>
      )}
    </form>
  );
}

/** Sends the event again now, as a manual attempt. */
export function RedeliverButton(props: EventActionProps) {
  return <EventActionButton {...props} label="Reenviar" pendingLabel="Reenviando…" />;
}

/**
 * Gives up a pending or failed event, so the later events of the transaction or cash-out (delivered
 * in order) are sent at once. Asks first: the event will not be sent again automatically.
 */
export function SkipButton(props: EventActionProps) {
  return (
    <EventActionButton
      {...props}
      label="Desistir"
      pendingLabel="Desistindo…"
      confirm={`Desistir do evento #${props.eventId}? Ele não será mais enviado automaticamente e os eventos seguintes ${subjectNoun(props.subject).ofThis} seguem.`}
    />
  );
}
