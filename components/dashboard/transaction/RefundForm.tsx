"use client";

import { useActionState, useState } from "react";
import { parseReais } from "@/components/dashboard/money-input";
import { formatBRL } from "@/components/dashboard/format";
import type { ActionState } from "@/lib/auth/action";
import type { FormAction } from "./form-action";
import { FORM_KEY_FIELD } from "@/lib/auth/form-key";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import ui from "@/components/dashboard/ui.module.css";

/** `formKey`: made by the page for this render; a double submit sends it twice and is one refund. */
export function RefundForm({
  transactionId,
  refundable,
  viaPsp = false,
  formKey,
  action: refundAction,
}: {
  transactionId: number;
  refundable: number;
  viaPsp?: boolean;
  formKey: string;
  action: FormAction;
}) {
  const [mode, setMode] = useState<"full" | "partial">("full");
  const [amountText, setAmountText] = useState("");
  const [step, setStep] = useState<"edit" | "confirm">("edit");
  const [error, setError] = useState<string | null>(null);
  const [state, formAction, pending] = useActionState<ActionState, FormData>(async (prev, form) => {
    const result = await refundAction(prev, form);
    setStep("edit");
    if (result.status === "ok") setAmountText("");
    return result;
  }, { status: "idle" });

  const amount = mode === "full" ? refundable : parseReais(amountText);

  function review(e: React.FormEvent) {
    e.preventDefault();
    if (amount === null || amount < 1) return setError("Informe um valor em reais, como 12,50.");
    if (amount > refundable) return setError(`O máximo reembolsável é ${formatBRL(refundable)}.`);
    setError(null);
    setStep("confirm");
  }

  // Nothing left to refund (this form's last submit may be why): only its outcome stays.
  if (refundable <= 0) {
    return state.status === "idle" ? null : <ActionAlert state={state} errorText={state.status === "error" ? state.fieldErrors?.amount : undefined} />;
  }

  return (
    <div className={ui.form}>
      <ActionAlert state={state} errorText={state.status === "error" ? state.fieldErrors?.amount : undefined} />
      {step === "edit" ? (
        <form className={ui.form} onSubmit={review} aria-label="Reembolso">
          <fieldset style={{ border: 0, padding: 0, margin: 0, display: "grid", gap: 8 }}>
            <legend className={ui.label} style={{ marginBottom: 6 }}>
              Quanto reembolsar?
            </legend>
            <label style={{ display: "flex", gap: 8, alignItems: "center" }}>
              <input type="radio" name="mode" value="full" checked={mode === "full"} onChange={() => setMode("full")} />
              Tudo ({formatBRL(refundable)})
            </label>
            <label style={{ display: "flex", gap: 8, alignItems: "center" }}>
              <input type="radio" name="mode" value="partial" checked={mode === "partial"} onChange={() => setMode("partial")} />
              Parte do valor
            </label>
          </fieldset>
          {mode === "partial" && (
            <div className={ui.field}>
              <label htmlFor="refund-amount">Valor do reembolso (R$)</label>
              <input
                id="refund-amount"
                inputMode="decimal"
                className={ui.input}
                placeholder="0,00"
                value={amountText}
                onChange={(e) => setAmountText(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "refund-error" : undefined}
              />
            </div>
          )}
          {error && (
            <span id="refund-error" className={ui.fieldError} role="alert">
              {error}
            </span>
          )}
          <div>
            <button type="submit" className={`${ui.button} ${ui.secondary}`}>
              Revisar reembolso
            </button>
          </div>
        </form>
      ) : (
        <form action={formAction} className={ui.confirmBox} aria-label="Confirmar reembolso">
          <input type="hidden" name="transactionId" value={transactionId} />
          <input type="hidden" name="mode" value={mode} />
          <input type="hidden" name="amount" value={amountText} />
          <input type="hidden" name={FORM_KEY_FIELD} value={formKey} />
          <div>
            <strong>
              Reembolsar {formatBRL(amount ?? 0)} da transação #{transactionId}?
            </strong>
            <p className={ui.small} style={{ margin: "4px 0 0" }}>
              {viaPsp
                ? "A devolução é pedida ao seu PSP, que devolve o valor ao pagador; até ele confirmar, o valor fica reservado no seu saldo. Esta ação não pode ser desfeita."
                : "O valor sai do seu saldo e volta para o pagador. Esta ação não pode ser desfeita."}
            </p>
          </div>
          <div className={ui.buttonRow}>
            <button type="submit" className={`${ui.button} ${ui.danger}`} disabled={pending}>
              {pending ? "Reembolsando…" : "Confirmar reembolso"}
            </button>
            <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={() => setStep("edit")} disabled={pending}>
              Voltar
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
