"use client";

import { startTransition, useActionState, useEffect, useRef } from "react";
import { KeyBox } from "@/components/ui/KeyBox";
import type { ActionState } from "@/lib/auth/action";
import { createPaymentLinkAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

const METHODS = [
  { value: "pix", label: "PIX" },
  { value: "credit_card", label: "Cartão de crédito" },
  { value: "boleto", label: "Boleto" },
];

export function PaymentLinkForm() {
  const [state, formAction, pending] = useActionState<ActionState<{ url: string }>, FormData>(createPaymentLinkAction, { status: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.status === "ok") formRef.current?.reset();
  }, [state]);
  // Submitted by hand: React empties the uncontrolled fields of a form after its action, so a refusal
  // ("Boleto e cartão exigem pelo menos R$ 1,00") would erase what was typed. Only a created link
  // clears the form (above). `action` stays for a submit before hydration.
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };
  const errors = state.status === "error" ? state.fieldErrors : undefined;

  return (
    <div className={ui.form}>
      {state.status === "ok" && state.data && (
        <div className={`${ui.alert} ${ui.alertSuccess}`} role="status" style={{ display: "grid", gap: 8 }}>
          <strong>Link criado! Compartilhe com quem vai pagar:</strong>
          <KeyBox value={state.data.url} label="Endereço do link de pagamento" testId="new-link-url" />
        </div>
      )}
      {state.status === "error" && !errors && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert">
          {state.message}
        </div>
      )}
      <form ref={formRef} action={formAction} onSubmit={onSubmit} className={ui.form} aria-label="Novo link de pagamento">
        <div className={ui.field}>
          <label htmlFor="link-description">Descrição</label>
          <input id="link-description" name="description" className={ui.input} maxLength={500} placeholder="Ex.: Consultoria de março" aria-invalid={errors?.description ? true : undefined} />
          {errors?.description && <span className={ui.fieldError}>{errors.description}</span>}
        </div>
        <div className={ui.field}>
          <label htmlFor="link-amount">Valor (R$)</label>
          <input id="link-amount" name="amount" inputMode="decimal" placeholder="0,00" className={ui.input} aria-invalid={errors?.amount ? true : undefined} />
          {errors?.amount && <span className={ui.fieldError}>{errors.amount}</span>}
        </div>
        <fieldset style={{ border: 0, padding: 0, margin: 0, display: "grid", gap: 6 }}>
          <legend className={ui.label} style={{ marginBottom: 6 }}>
            Meios aceitos
          </legend>
          {METHODS.map((m) => (
            <label key={m.value} style={{ display: "flex", gap: 8, alignItems: "center" }}>
              <input type="checkbox" name="methods" value={m.value} defaultChecked />
              {m.label}
            </label>
          ))}
          {errors?.methods && <span className={ui.fieldError}>{errors.methods}</span>}
        </fieldset>
        <div className={ui.field}>
          <label htmlFor="link-expires">Expira em (dias, opcional)</label>
          <input id="link-expires" name="expiresInDays" type="number" min={1} max={365} className={ui.input} aria-invalid={errors?.expiresInDays ? true : undefined} />
          {errors?.expiresInDays ? <span className={ui.fieldError}>{errors.expiresInDays}</span> : <span className={ui.hint}>Em branco: não expira.</span>}
        </div>
        <div>
          <button type="submit" className={ui.button} disabled={pending}>
            {pending ? "Criando…" : "Criar link"}
          </button>
        </div>
      </form>
    </div>
  );
}
