"use client";

import { startTransition, useActionState, useEffect, useRef } from "react";
import type { ActionState } from "@/lib/auth/action";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import { KeyBox } from "@/components/ui/KeyBox";
import { formatDateTime } from "@/components/dashboard/format";
import { cancelInvitationAction, inviteAction, removeMemberAction, type InviteData } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

/**
 * The invitation form. After an invitation the link is shown here, this once (the server keeps only
 * its hash), with a copy button, and the form is emptied for the next one.
 */
export function InviteForm({ mailConfigured, disabled }: { mailConfigured: boolean; disabled?: string }) {
  const [state, formAction, pending] = useActionState<ActionState<InviteData>, FormData>(inviteAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  const invited = state.status === "ok" ? state.data : undefined;
  useEffect(() => {
    if (invited) form.current?.reset();
  }, [invited]);

  // Submitted by hand: React empties the uncontrolled fields of a form after its action, so a refusal
  // ("Este e-mail já faz parte da equipe.") would erase the name and e-mail typed. Only a created
  // invitation clears the form (above). `action` stays for a submit before hydration.
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };

  const bind = (name: string) => ({
    id: `invite-${name}`,
    name,
    required: true,
    className: ui.input,
    "aria-invalid": errors?.[name] ? true : undefined,
    "aria-describedby": errors?.[name] ? `${name}-error` : `${name}-hint`,
  });

  return (
    <div className={ui.form}>
      {invited ? (
        <div className={`${ui.alert} ${ui.alertSuccess}`} role="status" data-testid="invite-result">
          <strong>Convite criado para {invited.name}.</strong>
          <p style={{ margin: "4px 0 10px" }}>
            {invited.mailed
              ? `Enviamos o link para ${invited.email}. Você também pode copiá-lo abaixo.`
              : invited.mailFailed
                ? `Não conseguimos enviar o e-mail para ${invited.email}: copie o link abaixo e envie você mesmo.`
                : `Copie o link abaixo e envie para ${invited.email} (por e-mail ou mensagem).`}{" "}
            Ele vale até {formatDateTime(invited.expiresAt)}, pode ser usado uma vez e não será mostrado de novo.
          </p>
          <KeyBox value={invited.link} label="Link do convite" testId="invite-link" />
        </div>
      ) : (
        state.status === "error" && <ActionAlert state={state} />
      )}
      {disabled ? (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="note">
          {disabled}
        </div>
      ) : (
        <form ref={form} action={formAction} onSubmit={onSubmit} method="post" className={ui.form} aria-label="Convidar pessoa">
          <div className={ui.field}>
            <label htmlFor="invite-name">Nome</label>
            <input {...bind("name")} autoComplete="off" maxLength={120} />
            <FieldErrorText errors={errors} name="name" hint="Como a pessoa aparece na lista da equipe." />
          </div>
          <div className={ui.field}>
            <label htmlFor="invite-email">E-mail</label>
            <input {...bind("email")} type="email" autoComplete="off" maxLength={254} />
            <FieldErrorText
              errors={errors}
              name="email"
              hint={mailConfigured ? "Enviaremos o link do convite para este e-mail." : "Este será o e-mail de acesso da pessoa."}
            />
          </div>
          {!mailConfigured && (
            <p className={`${ui.small} ${ui.muted}`} style={{ margin: 0 }} data-testid="no-smtp">
              Este servidor não envia e-mails (SMTP não configurado): depois de convidar, copie o link e envie você mesmo para a pessoa.
            </p>
          )}
          <div className={ui.buttonRow}>
            <button type="submit" className={ui.button} disabled={pending}>
              {pending ? "Convidando…" : "Convidar"}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A row's button (remove a login, cancel an invitation): asks first, then says what went wrong if anything did. */
function RowAction({
  action,
  field,
  id,
  label,
  pendingLabel,
  confirm,
  accessibleName,
}: {
  action: (prev: ActionState, formData: FormData) => Promise<ActionState>;
  field: string;
  id: number;
  label: string;
  pendingLabel: string;
  confirm: string;
  accessibleName: string;
}) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(action, { status: "idle" });
  return (
    <form
      action={formAction}
      onSubmit={(e) => {
        if (!window.confirm(confirm)) e.preventDefault();
      }}
      style={{ display: "inline-flex", gap: 8, alignItems: "center", flexWrap: "wrap", justifyContent: "flex-end" }}
    >
      <input type="hidden" name={field} value={id} />
      <button type="submit" className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} disabled={pending} aria-label={accessibleName}>
        {pending ? pendingLabel : label}
      </button>
      {state.status === "error" && (
        <span className={ui.fieldError} role="alert">
          {state.message}
        </span>
      )}
    </form>
  );
}

export function RemoveMemberButton({ userId, name, email }: { userId: number; name: string; email: string }) {
  return (
    <RowAction
      action={removeMemberAction}
      field="userId"
      id={userId}
      label="Remover"
      pendingLabel="Removendo…"
      accessibleName={`Remover ${name}`}
      confirm={`Remover o acesso de ${name} (${email})? A pessoa sai do painel agora, em todos os aparelhos, e não consegue mais entrar.`}
    />
  );
}

export function CancelInvitationButton({ invitationId, email }: { invitationId: number; email: string }) {
  return (
    <RowAction
      action={cancelInvitationAction}
      field="invitationId"
      id={invitationId}
      label="Cancelar"
      pendingLabel="Cancelando…"
      accessibleName={`Cancelar o convite de ${email}`}
      confirm={`Cancelar o convite de ${email}? O link enviado deixa de funcionar.`}
    />
  );
}
