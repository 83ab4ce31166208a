"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import s from "@/components/dashboard/auth.module.css";
import ui from "@/components/dashboard/ui.module.css";

const THROTTLED = "throttled:";

function messageFor(error: string): string {
  if (error === "CredentialsSignin") return "E-mail ou senha incorretos.";
  if (error.startsWith(THROTTLED)) {
    const seconds = Number(error.slice(THROTTLED.length)) || 900;
    const minutes = Math.ceil(seconds / 60);
    return `Muitas tentativas de acesso sem sucesso. Por segurança, o acesso foi bloqueado temporariamente: tente de novo em ${minutes} ${minutes === 1 ? "minuto" : "minutos"}.`;
  }
  return "Não foi possível entrar agora. Tente novamente em instantes.";
}

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [show, setShow] = useState(false);
  const router = useRouter();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
      });
      if (!res || res.error || !res.ok) {
        setError(messageFor(res?.error ?? ""));
        setPending(false);
        return;
      }
      // The session cookie is set: server components render for the signed-in user from here on.
      router.replace(callbackUrl);
      router.refresh();
    } catch {
      setError("Não foi possível entrar agora. Verifique sua conexão e tente novamente.");
      setPending(false);
    }
  }

  return (
    // method="post": a submit before hydration (or without JavaScript) sends the password in the body,
    // never in the address (a GET form would put it in the URL, the history and the server's logs).
    <form className={ui.form} method="post" action="/login" onSubmit={onSubmit} noValidate={false}>
      {error && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert">
          {error}
        </div>
      )}
      <div className={ui.field}>
        <label htmlFor="email">E-mail</label>
        <input id="email" name="email" type="email" autoComplete="username" required className={ui.input} autoFocus />
      </div>
      <div className={ui.field}>
        <label htmlFor="password">Senha</label>
        <div className={s.passwordRow}>
          <input
            id="password"
            name="password"
            type={show ? "text" : "password"}
            autoComplete="current-password"
            required
            className={ui.input}
          />
          <button type="button" className={s.reveal} onClick={() => setShow((v) => !v)} aria-pressed={show}>
            {show ? "Ocultar" : "Mostrar"}
          </button>
        </div>
      </div>
      <button type="submit" className={ui.button} disabled={pending}>
        {pending ? "Entrando…" : "Entrar"}
      </button>
    </form>
  );
}
