"use client";

import { useActionState, useState, useTransition } from "react";
import type { ActionState } from "@/lib/auth/action";
import { DELIVERY_STATUS_LABEL } from "@/lib/domain/delivery";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "./form-action";

/** Sets the delivery status and tracking code of a paid sale's goods (moves no money, sends no webhook). */
export function DeliveryForm({ transactionId, status, trackingCode, action }: { transactionId: number; status: string; trackingCode: string; action: FormAction }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(action, { status: "idle" });
  const [, startTransition] = useTransition();
  // Controlled, so what was typed stays when the server answers with an error; once the page renders
  // again with what was saved (the code trimmed, say), the fields show that.
  const [chosen, setChosen] = useState(status);
  const [code, setCode] = useState(trackingCode);
  const [saved, setSaved] = useState({ status, trackingCode });
  if (saved.status !== status || saved.trackingCode !== trackingCode) {
    setSaved({ status, trackingCode });
    setChosen(status);
    setCode(trackingCode);
  }
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  return (
    <form
      className={ui.form}
      style={{ marginTop: 16 }}
      aria-label="Atualizar entrega"
      noValidate
      // Submitted by hand: a form action would reset the form afterwards, and the select would show its
      // first option instead of the status just saved.
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <ActionAlert state={state} />
      <input type="hidden" name="transactionId" value={transactionId} />
      <div className={ui.field}>
        <label htmlFor="deliveryStatus">Status da entrega</label>
        <select id="deliveryStatus" name="status" value={chosen} onChange={(e) => setChosen(e.target.value)} className={ui.input}>
          {Object.entries(DELIVERY_STATUS_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className={ui.field}>
        <label htmlFor="trackingCode">Código de rastreio</label>
        <input
          id="trackingCode"
          name="trackingCode"
          className={ui.input}
          maxLength={100}
          autoComplete="off"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={errors?.trackingCode ? true : undefined}
          aria-describedby={errors?.trackingCode ? "trackingCode-error" : "trackingCode-hint"}
        />
        <FieldErrorText errors={errors} name="trackingCode" hint="Opcional; em branco remove o código." />
      </div>
      <div>
        <button type="submit" className={`${ui.button} ${ui.secondary}`} disabled={pending}>
          {pending ? "Salvando…" : "Salvar entrega"}
        </button>
      </div>
    </form>
  );
}
