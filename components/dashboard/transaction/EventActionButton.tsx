"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "./form-action";
import ui from "@/components/dashboard/ui.module.css";

export type EventActionProps = { eventId: number; transactionId: number; action: FormAction };

/**
 * A small form that runs one action on one webhook event of a transaction and says how it went;
 * with `confirm`, it asks first and does nothing when the merchant says no.
 */
export function EventActionButton({
  eventId,
  transactionId,
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
      <input type="hidden" name="transactionId" value={transactionId} />
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
