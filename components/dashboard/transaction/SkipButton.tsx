"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "./form-action";
import ui from "@/components/dashboard/ui.module.css";

/**
 * Gives up a pending or failed event, so the later events of the transaction (delivered in order)
 * are sent at once. Asks first: the event will not be sent again automatically.
 */
export function SkipButton({ eventId, transactionId, action: skipAction }: { eventId: number; transactionId: number; action: FormAction }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(skipAction, { status: "idle" });
  return (
    <form
      action={formAction}
      onSubmit={(e) => {
        if (!window.confirm(`Desistir do evento #${eventId}? Ele não será mais enviado automaticamente e os eventos seguintes desta transação seguem.`)) {
          e.preventDefault();
        }
      }}
      style={{ display: "inline-flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}
    >
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="transactionId" value={transactionId} />
      <button type="submit" className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} disabled={pending}>
        {pending ? "Desistindo…" : "Desistir"}
      </button>
      {state.status !== "idle" && (
        <span className={state.status === "ok" ? ui.fieldOk : ui.fieldError} role="status">
          {state.message}
        </span>
      )}
    </form>
  );
}
