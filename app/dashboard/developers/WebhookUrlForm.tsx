"use client";

import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/auth/action";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import { updateWebhookUrlAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

/** The account's default webhook URL: for charges and cash-outs created without a postbackUrl. */
export function WebhookUrlForm({ initial }: { initial: string | null }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(updateWebhookUrlAction, { status: "idle" });
  // Controlled, so what was typed stays when the server answers with an error.
  const [url, setUrl] = useState(initial ?? "");
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className={ui.form} aria-label="Webhook padrão" noValidate>
      <ActionAlert state={state} />
      <div className={ui.field}>
        <label htmlFor="webhookUrl">URL de webhook padrão</label>
        <input
          id="webhookUrl"
          name="webhookUrl"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://sualoja.com.br/webhooks/arara"
          className={ui.input}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={errors?.webhookUrl ? true : undefined}
          aria-describedby={errors?.webhookUrl ? "webhookUrl-error webhookUrl-hint" : "webhookUrl-hint"}
        />
        <FieldErrorText errors={errors} name="webhookUrl" />
        <span id="webhookUrl-hint" className={ui.hint}>
          Recebe as notificações das transações e saques criados sem <code>postbackUrl</code>. Um <code>postbackUrl</code> enviado
          na requisição tem prioridade. Deixe em branco para não usar.
        </span>
      </div>
      <div>
        <button type="submit" className={`${ui.button} ${ui.primary}`} disabled={pending}>
          {pending ? "Salvando…" : "Salvar URL"}
        </button>
      </div>
    </form>
  );
}
