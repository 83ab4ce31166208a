"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/auth/action";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import { changePasswordAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

/**
 * The password form. Uncontrolled: React empties it after each submit, so no password stays on the
 * page (in the fields or in the state) once the server has answered.
 */
export function PasswordForm({ email, minLength, maxLength }: { email: string; minLength: number; maxLength: number }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(changePasswordAction, { status: "idle" });
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  const bind = (name: string, autoComplete: "current-password" | "new-password", hint = true) => ({
    id: name,
    name,
    type: "password",
    autoComplete,
    required: true,
    maxLength,
    className: ui.input,
    "aria-invalid": errors?.[name] ? true : undefined,
    "aria-describedby": errors?.[name] ? `${name}-error` : hint ? `${name}-hint` : undefined,
  });

  return (
    // method="post": a submit before hydration sends the passwords in the body, never in the URL.
    <form action={formAction} method="post" className={ui.form} aria-label="Alterar senha">
      <ActionAlert state={state} />
      {/* The account's login, for password managers to save the new password under it. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div className={ui.field}>
        <label htmlFor="currentPassword">Senha atual</label>
        <input {...bind("currentPassword", "current-password", false)} />
        <FieldErrorText errors={errors} name="currentPassword" />
      </div>
      <div className={ui.field}>
        <label htmlFor="newPassword">Nova senha</label>
        <input {...bind("newPassword", "new-password")} minLength={minLength} />
        <FieldErrorText errors={errors} name="newPassword" hint={`Pelo menos ${minLength} caracteres, diferente da atual.`} />
      </div>
      <div className={ui.field}>
        <label htmlFor="confirmation">Confirme a nova senha</label>
        <input {...bind("confirmation", "new-password")} minLength={minLength} />
        <FieldErrorText errors={errors} name="confirmation" hint="Digite a nova senha outra vez." />
      </div>
      <div className={ui.buttonRow}>
        <button type="submit" className={ui.button} disabled={pending}>
          {pending ? "Alterando…" : "Alterar senha"}
        </button>
      </div>
    </form>
  );
}
