"use client";

import { useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import type { ActionState } from "@/lib/auth/action";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import { acceptInvitationAction, type Accepted } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

/**
 * The colleague's form: a name and a password typed twice. Once the login exists, the browser signs
 * in with it and goes to the dashboard; if signing in fails, the page says to sign in by hand.
 */
export function AcceptForm({ token, name, email, minLength, maxLength }: { token: string; name: string; email: string; minLength: number; maxLength: number }) {
  const [state, setState] = useState<ActionState<Accepted>>({ status: "idle" });
  const [signInFailed, setSignInFailed] = useState(false);
  const [pending, startTransition] = useTransition();
  const router = useRouter();

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(async () => {
      const res = await acceptInvitationAction(token, form);
      setState(res);
      if (res.status !== "ok" || !res.data) return;
      const signedIn = await signIn("credentials", { redirect: false, email: res.data.email, password: String(form.get("password") ?? "") }).catch(() => null);
      if (signedIn?.ok && !signedIn.error) {
        router.replace("/dashboard");
        router.refresh();
      } else {
        setSignInFailed(true);
      }
    });
  }

  if (state.status === "ok") {
    return (
      <div className={`${ui.alert} ${ui.alertSuccess}`} role="status" data-testid="invite-accepted">
        <strong>Acesso criado!</strong>
        {signInFailed ? (
          <>
            Entre com o e-mail {state.data?.email} e a senha que você criou. <Link href="/login">Ir para a página de entrada</Link>
          </>
        ) : (
          "Entrando no painel…"
        )}
      </div>
    );
  }

  const errors = state.status === "error" ? state.fieldErrors : undefined;
  const describe = (n: string, hint: boolean) => (errors?.[n] ? `${n}-error` : hint ? `${n}-hint` : undefined);
  return (
    // method="post": never a password in the URL, even when submitted before hydration.
    <form className={ui.form} method="post" onSubmit={onSubmit} aria-label="Aceitar convite">
      {state.status === "error" && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert">
          {state.message}
        </div>
      )}
      <div className={ui.field}>
        <label htmlFor="email">E-mail de acesso</label>
        <input id="email" name="username" type="email" className={ui.input} value={email} readOnly autoComplete="username" aria-describedby="email-hint" />
        <span id="email-hint" className={ui.hint}>
          O e-mail do convite. Para usar outro, peça um novo convite.
        </span>
      </div>
      <div className={ui.field}>
        <label htmlFor="name">Seu nome</label>
        <input id="name" name="name" className={ui.input} defaultValue={name} required maxLength={120} autoComplete="name" aria-invalid={errors?.name ? true : undefined} aria-describedby={describe("name", false)} />
        <FieldErrorText errors={errors} name="name" />
      </div>
      <div className={ui.field}>
        <label htmlFor="password">Senha</label>
        <input
          id="password"
          name="password"
          type="password"
          className={ui.input}
          required
          minLength={minLength}
          maxLength={maxLength}
          autoComplete="new-password"
          aria-invalid={errors?.password ? true : undefined}
          aria-describedby={describe("password", true)}
        />
        <FieldErrorText errors={errors} name="password" hint={`Pelo menos ${minLength} caracteres.`} />
      </div>
      <div className={ui.field}>
        <label htmlFor="confirmation">Confirme a senha</label>
        <input
          id="confirmation"
          name="confirmation"
          type="password"
          className={ui.input}
          required
          maxLength={maxLength}
          autoComplete="new-password"
          aria-invalid={errors?.confirmation ? true : undefined}
          aria-describedby={describe("confirmation", false)}
        />
        <FieldErrorText errors={errors} name="confirmation" />
      </div>
      <button type="submit" className={ui.button} disabled={pending}>
        {pending ? "Criando acesso…" : "Criar acesso e entrar"}
      </button>
    </form>
  );
}
