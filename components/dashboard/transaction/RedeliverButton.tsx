"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "./form-action";
import ui from "@/components/dashboard/ui.module.css";

export function RedeliverButton({ eventId, transactionId, action: redeliverAction }: { eventId: number; transactionId: number; action: FormAction }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(redeliverAction, { status: "idle" });
  return (
    <form action={formAction} style={{ display: "inline-flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}>
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="transactionId" value={transactionId} />
      <button type="submit" className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} disabled={pending}>
        {pending ? "Reenviando…" : "Reenviar"}
      </button>
      {state.status !== "idle" && (
        <span className={state.status === "ok" ? ui.fieldOk : ui.fieldError} role="status">
          {state.message}
        </span>
      )}
    </form>
  );
}
