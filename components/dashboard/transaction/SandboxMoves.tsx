"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "./form-action";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import ui from "@/components/dashboard/ui.module.css";

export function SandboxMoves({ transactionId, moves, action: sandboxMoveAction }: { transactionId: number; moves: { to: string; label: string }[]; action: FormAction }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(sandboxMoveAction, { status: "idle" });
  return (
    <div className={ui.form}>
      <ActionAlert state={state} />
      <form action={formAction} className={ui.buttonRow}>
        <input type="hidden" name="transactionId" value={transactionId} />
        {moves.map((m) => (
          <button key={m.to} type="submit" name="to" value={m.to} className={`${ui.button} ${ui.secondary}`} disabled={pending}>
            {m.label}
          </button>
        ))}
      </form>
    </div>
  );
}
