"use client";

import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import type { ActionState } from "@/lib/auth/action";
import type { ConnectionTest, PspSettingsView } from "@/lib/services/psp/api-pix-settings";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { savePspSettingsAction, testPspConnectionAction } from "./actions";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import ui from "@/components/dashboard/ui.module.css";

type View = Omit<PspSettingsView, "updatedAt" | "webhookRegisteredAt"> & { updatedAt: null; webhookRegisteredAt: null };

export function PspSettingsForm({ view }: { view: View }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(savePspSettingsAction, { status: "idle" });
  const [processor, setProcessor] = useState<string>(view.processor);
  const [fields, setFields] = useState<Record<string, string>>({
    baseUrl: view.baseUrl,
    tokenUrl: view.tokenUrl,
    clientId: view.clientId,
    scope: view.scope,
    pixKey: view.pixKey,
    payoutPayerKey: view.payoutPayerKey,
  });
  const [payoutEfi, setPayoutEfi] = useState<boolean>(view.payoutEfi);
  const [clientAuth, setClientAuth] = useState<string>(view.clientAuth);
  const [noClientSecret, setNoClientSecret] = useState<boolean>(view.clientAuth === "body" && !view.hasClientSecret);
  const [scopeMode, setScopeMode] = useState<string>(view.scopeMode);
  const formRef = useRef<HTMLFormElement>(null);
  // Secrets and files are cleared once saved (never kept in the page); the other fields stay as typed.
  useEffect(() => {
    if (state.status !== "ok" || !formRef.current) return;
    for (const el of formRef.current.querySelectorAll<HTMLInputElement>('input[type="password"], input[type="file"]')) el.value = "";
  }, [state]);
  // Submitted by hand: React's automatic form reset after an action would put the controlled
  // <select> back on its first option while the state still says "api-pix".
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  // The field's error when it has one, else its hint.
  const err = (f: string, hint?: string) => <FieldErrorText errors={errors} name={f} hint={hint} />;
  const text = (name: string, label: string, hint?: string, type = "text", required = processor === "api-pix") => (
    <div className={ui.field}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type={type}
        value={fields[name] ?? ""}
        onChange={(e) => setFields((v) => ({ ...v, [name]: e.target.value }))}
        className={ui.input}
        autoComplete="off"
        required={required}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `${name}-error` : hint ? `${name}-hint` : undefined}
      />
      {err(name, hint)}
    </div>
  );
  const file = (name: string, label: string, hint: string) => (
    <div className={ui.field}>
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type="file" className={ui.input} aria-invalid={errors?.[name] ? true : undefined} aria-describedby={errors?.[name] ? `${name}-error` : `${name}-hint`} />
      {err(name, hint)}
    </div>
  );
  const secret = (name: string, label: string, stored: boolean, disabled = false) => (
    <div className={ui.field}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="password"
        disabled={disabled}
        className={ui.input}
        autoComplete="new-password"
        placeholder={stored ? "•••••••• (guardado; deixe em branco para manter)" : ""}
        aria-invalid={errors?.[name] ? true : undefined}
        aria-describedby={errors?.[name] ? `${name}-error` : undefined}
      />
      {err(name)}
    </div>
  );

  return (
    <form ref={formRef} action={formAction} onSubmit={onSubmit} className={ui.form} aria-label="Processador de PIX">
      <ActionAlert state={state} />
      <div className={ui.field}>
        <label htmlFor="processor">Processador</label>
        <select id="processor" name="processor" value={processor} onChange={(e) => setProcessor(e.target.value)} className={ui.select}>
          <option value="sandbox">Sandbox (testes, nenhum dinheiro real)</option>
          <option value="api-pix">API Pix do meu PSP (padrão Banco Central)</option>
        </select>
      </div>
      {processor === "api-pix" && (
        <>
          <div className={`${ui.grid} ${ui.grid2}`}>
            {text("baseUrl", "URL da API Pix", "Ex.: https://pix.seubanco.com.br/api/v2")}
            {text("tokenUrl", "URL do token (OAuth2)", "Ex.: https://pix.seubanco.com.br/oauth/token")}
            {text("clientId", "Client id")}
            {secret("clientSecret", "Client secret", view.hasClientSecret && !noClientSecret, clientAuth === "body" && noClientSecret)}
          </div>
          <div className={`${ui.grid} ${ui.grid2}`}>
            <div className={ui.field}>
              <label htmlFor="clientAuth">Autenticação do cliente no token</label>
              <select id="clientAuth" name="clientAuth" value={clientAuth} onChange={(e) => setClientAuth(e.target.value)} className={ui.select} aria-describedby={errors?.clientAuth ? "clientAuth-error" : "clientAuth-hint"}>
                <option value="basic">HTTP Basic com client id e secret (a maioria dos PSPs)</option>
                <option value="body">client_id no corpo da requisição (ex.: Sicoob)</option>
              </select>
              {err(
                "clientAuth",
                clientAuth === "body"
                  ? "O client id (e o secret, se houver) vai no corpo do pedido de token e no cabeçalho client_id de cada chamada."
                  : "Como pede o padrão OAuth2 (client_secret_basic).",
              )}
              {clientAuth === "body" && (
                <label style={{ display: "flex", gap: 8, alignItems: "center", fontWeight: "normal" }}>
                  <input type="checkbox" name="noClientSecret" checked={noClientSecret} onChange={(e) => setNoClientSecret(e.target.checked)} />O PSP não emitiu client secret (o
                  certificado identifica a aplicação)
                </label>
              )}
            </div>
            <div className={ui.field}>
              <label htmlFor="scopeMode">Escopos pedidos no token</label>
              <select id="scopeMode" name="scopeMode" value={scopeMode} onChange={(e) => setScopeMode(e.target.value)} className={ui.select} aria-describedby={errors?.scopeMode ? "scopeMode-error" : "scopeMode-hint"}>
                <option value="default">Os da API Pix (padrão)</option>
                <option value="custom">Personalizados</option>
                <option value="none">Nenhum (o PSP concede os da aplicação)</option>
              </select>
              {err(
                "scopeMode",
                scopeMode === "default"
                  ? `Pede: ${payoutEfi ? `${view.defaultScope} ${view.efiScope}` : view.defaultScope}.`
                  : scopeMode === "none"
                    ? "O pedido de token não leva scope: só para PSPs que recusam o parâmetro."
                    : "Separados por espaço, como o PSP os nomeia.",
              )}
              {scopeMode === "custom" && text("scope", "Escopos", "Ex.: cob.write cob.read pix.write pix.read webhook.write webhook.read", "text", true)}
            </div>
          </div>
          <div className={`${ui.grid} ${ui.grid2}`}>
            {file("certificate", "Certificado do cliente", view.certificate ? "Já enviado; envie outro só para trocar (.pem/.crt ou .p12/.pfx)." : "Emitido pelo PSP: .pem/.crt (com ou sem a chave) ou .p12/.pfx.")}
            {file("privateKey", "Chave privada (PEM)", "Só se o certificado PEM vier sem a chave (.key).")}
            {secret("certificatePassword", "Senha do certificado", view.hasCertificatePassword)}
            {file("caCertificate", "CA do servidor do PSP (opcional)", view.hasCa ? "Já enviada; envie outra só para trocar." : "Só se o PSP usar uma CA própria.")}
          </div>
          <div className={`${ui.grid} ${ui.grid2}`}>{text("pixKey", "Chave PIX neste PSP", "As cobranças são geradas para esta chave.")}</div>
          <fieldset className={ui.field} style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className={ui.label} style={{ padding: 0, marginBottom: 6 }}>
              Saques (cash-out)
            </legend>
            <label style={{ display: "flex", gap: 8, alignItems: "center", fontWeight: "normal" }}>
              <input type="checkbox" name="payoutEfi" checked={payoutEfi} onChange={(e) => setPayoutEfi(e.target.checked)} />
              Enviar os saques pela Efí (Pix Envio), da minha conta Efí
            </label>
            <span className={ui.hint}>
              {payoutEfi
                ? "Exige o escopo pix.send liberado pela Efí para esta aplicação."
                : "Desligado: o dinheiro está na sua conta do PSP e os saques pela API são recusados; saque direto no PSP."}
            </span>
          </fieldset>
          {payoutEfi && (
            <div className={`${ui.grid} ${ui.grid2}`}>{text("payoutPayerKey", "Chave PIX pagadora na Efí", "Uma chave da sua conta Efí (pagador.chave): os saques saem dela.")}</div>
          )}
        </>
      )}
      <div>
        <button type="submit" className={ui.button} disabled={pending}>
          {pending ? "Salvando…" : "Salvar"}
        </button>
      </div>
    </form>
  );
}

export function TestConnection({ disabled }: { disabled: boolean }) {
  const [state, formAction, pending] = useActionState<ActionState<ConnectionTest>, FormData>(testPspConnectionAction, { status: "idle" });
  return (
    <form action={formAction} aria-label="Testar conexão" style={{ display: "grid", gap: 10 }}>
      <ActionAlert state={state} />
      <div>
        <button type="submit" className={`${ui.button} ${ui.secondary}`} disabled={pending || disabled}>
          {pending ? "Testando…" : "Testar conexão"}
        </button>
      </div>
    </form>
  );
}
