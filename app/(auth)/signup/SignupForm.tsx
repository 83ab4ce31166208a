"use client";

import { useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { KeyBox } from "@/components/ui/KeyBox";
import type { ActionState } from "@/lib/auth/action";
import { signUp, type SignupKeys } from "./actions";
import s from "@/components/dashboard/auth.module.css";
import ui from "@/components/dashboard/ui.module.css";

function Field({
  name,
  label,
  errors,
  hint,
  ...input
}: { name: string; label: string; errors?: Record<string, string>; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const err = errors?.[name];
  return (
    <div className={ui.field}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        className={ui.input}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? `${name}-error` : hint ? `${name}-hint` : undefined}
        {...input}
      />
      {err ? (
        <span id={`${name}-error`} className={ui.fieldError}>
          {err}
        </span>
      ) : hint ? (
        <span id={`${name}-hint`} className={ui.hint}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

export function SignupForm() {
  const [state, setState] = useState<ActionState<SignupKeys>>({ status: "idle" });
  const [keys, setKeys] = useState<SignupKeys | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();
  const router = useRouter();

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(async () => {
      const res = await signUp(form);
      if (res.status !== "ok" || !res.data) {
        setState(res);
        return;
      }
      // Signed in straight away with what was just typed; the password is not kept after this.
      await signIn("credentials", { redirect: false, email: String(form.get("email")), password: String(form.get("password")) });
      setKeys(res.data);
    });
  }

  if (keys) {
    return (
      <div className={ui.form}>
        <div>
          <h1>Conta criada!</h1>
          <p style={{ color: "#475569", margin: "6px 0 0" }}>Estas são as chaves de API da sua conta.</p>
        </div>
        <div className={`${ui.alert} ${ui.alertWarning}`} role="alert">
          <strong>Guarde a chave secreta agora.</strong>
          Ela não será mostrada de novo. Se perdê-la, gere outra em Desenvolvedores (a atual deixa de funcionar).
        </div>
        <div className={ui.field}>
          <span className={ui.label}>Chave pública</span>
          <KeyBox value={keys.publicKey} label="Chave pública" testId="signup-public-key" />
        </div>
        <div className={ui.field}>
          <span className={ui.label}>Chave secreta</span>
          <KeyBox value={keys.secretKey} label="Chave secreta" testId="signup-secret-key" />
        </div>
        <label style={{ display: "flex", gap: 8, alignItems: "flex-start", fontSize: "0.9rem" }}>
          <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
          Guardei minha chave secreta em um lugar seguro.
        </label>
        <button type="button" className={ui.button} disabled={!saved} onClick={() => router.push("/dashboard")}>
          Ir para o painel
        </button>
      </div>
    );
  }

  const errors = state.status === "error" ? state.fieldErrors : undefined;
  return (
    <>
      <h1>Criar conta</h1>
      <p>Comece a receber em minutos. Todas as transações são de teste (sandbox).</p>
      {/* method="post": never a password in the URL, even when submitted before hydration. */}
      <form className={ui.form} method="post" action="/signup" onSubmit={onSubmit}>
        {state.status === "error" && (
          <div className={`${ui.alert} ${ui.alertError}`} role="alert">
            {state.message}
          </div>
        )}
        <Field name="name" label="Nome da empresa" autoComplete="organization" required errors={errors} />
        <Field name="document" label="CPF ou CNPJ" inputMode="numeric" required errors={errors} hint="Somente números ou com pontuação." />
        <Field
          name="city"
          label="Cidade"
          autoComplete="address-level2"
          maxLength={60}
          required
          errors={errors}
          hint="Aparece no PIX para quem paga (no QR Code, sem acentos e até 15 letras)."
        />
        <Field name="email" label="E-mail de acesso" type="email" autoComplete="email" required errors={errors} />
        <Field name="password" label="Senha" type="password" autoComplete="new-password" minLength={8} required errors={errors} hint="Pelo menos 8 caracteres." />
        <Field name="passwordConfirmation" label="Confirme a senha" type="password" autoComplete="new-password" required errors={errors} />
        <Field
          name="pixKey"
          label="Chave PIX de recebimento (opcional)"
          errors={errors}
          hint="CPF, CNPJ, e-mail, celular com +55 ou chave aleatória. Se ficar em branco, usamos o CPF/CNPJ da conta."
        />
        <button type="submit" className={ui.button} disabled={pending}>
          {pending ? "Criando conta…" : "Criar conta"}
        </button>
      </form>
      <p className={s.switch}>
        Já tem conta? <Link href="/login">Entrar</Link>
      </p>
    </>
  );
}
