"use client";

import Link from "next/link";
import { useActionState, useMemo, useState } from "react";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";
import { PixKeyTypeSelect } from "@/components/dashboard/PixKeyTypeSelect";
import { parseReais } from "@/components/dashboard/money-input";
import { CASH_OUT_SOURCE_LABEL, formatBRL, PIX_KEY_TYPE_LABEL } from "@/components/dashboard/format";
import type { CashOutSource } from "@/lib/domain/cash-out";
import type { PixKeyType } from "@/lib/domain/pix/keys";
import type { ActionState } from "@/lib/auth/action";
import { cashOutAction } from "./actions";
import { lookupRecipientAction } from "./lookup-action";
import type { PixKeyHolder } from "@/lib/processors/types";
import { FORM_KEY_FIELD } from "@/lib/auth/form-key";
import ui from "@/components/dashboard/ui.module.css";

/** Where the money may come from, when the account has money at its own PSP or can send from there. */
export type CashOutSources = {
  /** The API's default for this account: `psp` when it receives PIX through its own PSP. */
  defaultSource: CashOutSource;
  /** Efí's Pix Envio is set up: a cash-out from the PSP balance can be sent. */
  pspReady: boolean;
};

const PSP_NOT_READY =
  "Os saques do saldo no seu PSP ainda não estão configurados: esse dinheiro está na sua conta do PSP, não com a Arara. Configure o envio pela Efí (Pix Envio) em Recebimento PIX, ou escolha o saldo na Arara.";

/** What the merchant asked to review, as sent to the lookup, and what the lookup answered. */
type Reviewed = {
  amountText: string;
  amount: number;
  after: number;
  source: CashOutSource;
  key: { key: string; type: PixKeyType };
  description: string;
  holder: PixKeyHolder | "unchecked";
  confirmation: string;
};

/**
 * `balances`: what Arara holds (`arara`) and what sits in the merchant's PSP account (`psp`).
 * `sources`: null for an account with nothing at a PSP of its own, which sends from Arara's balance only.
 * `formKey`: made by the page for this render; a double submit sends it twice and is one cash-out.
 */
export function CashOutForm({
  balances,
  sources,
  fee,
  formKey,
}: {
  balances: Record<CashOutSource, number>;
  sources: CashOutSources | null;
  fee: number;
  formKey: string;
}) {
  const [chosen, setSource] = useState<CashOutSource>(sources?.defaultSource ?? "arara");
  // The page may render again without the choice (the account no longer has a PSP side): Arara's, then.
  const source: CashOutSource = sources ? chosen : "arara";
  const available = balances[source];
  const [amountText, setAmountText] = useState("");
  const [pixKey, setPixKey] = useState("");
  const [pixKeyType, setPixKeyType] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The confirmation step: what was sent to the lookup, frozen, and the key's holder from the sending
  // processor's DICT lookup ("unchecked" when that processor has no lookup: the merchant confirms the
  // key itself). The step shows and sends these, never the fields as they are now: the holder shown is
  // always the one of the key sent (the fields are also read-only while the lookup runs).
  const [confirming, setConfirming] = useState<Reviewed | null>(null);
  const [looking, setLooking] = useState(false);
  const [state, formAction, pending] = useActionState<ActionState<{ id: number }>, FormData>(async (prev, form) => {
    const result = await cashOutAction(prev, form);
    setConfirming(null);
    if (result.status === "ok") {
      setAmountText("");
      setPixKey("");
      setPixKeyType("");
      setDescription("");
    }
    return result;
  }, { status: "idle" });

  const amount = parseReais(amountText);
  const key = useMemo(() => checkPixKeyInput(pixKey, pixKeyType), [pixKey, pixKeyType]);
  const after = amount === null ? null : available - amount - fee;
  const sourceName = sources ? (source === "psp" ? "o saldo no seu PSP" : "o saldo na Arara") : "o disponível";

  function review(e: React.FormEvent) {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (sources && source === "psp" && !sources.pspReady) errs.source = PSP_NOT_READY;
    if (amount === null || amount < 1) errs.amount = "Informe um valor em reais, como 150,00.";
    else if (after !== null && after < 0) errs.amount = `Saldo insuficiente: ${sourceName} é ${formatBRL(available)}${fee ? ` e a tarifa é ${formatBRL(fee)}` : ""}.`;
    if (!key) errs.pixKey = "Informe a chave PIX de destino.";
    else if (!key.ok) errs.pixKey = pixKeyErrorText(key) ?? "";
    setErrors(errs);
    if (Object.keys(errs).length > 0 || !key?.ok || amount === null || after === null) return;
    const asked = { amountText, amount, after, source, key: { key: key.key, type: key.type }, description };
    setLooking(true);
    void lookupRecipientAction(asked.key.key, asked.key.type, asked.source, asked.amount, formKey)
      .then((res) => {
        if (res.status === "ok" && res.data?.confirmation && (res.data.holder || !res.data.checked)) {
          setConfirming({ ...asked, holder: res.data.holder ?? "unchecked", confirmation: res.data.confirmation });
        } else if (res.status === "ok") {
          setErrors({ pixKey: "Esta chave PIX não está cadastrada em nenhuma instituição (DICT). Confira a chave." });
        } else {
          setErrors({ pixKey: res.status === "error" ? res.message : "Não foi possível consultar a chave agora." });
        }
      })
      .catch(() => setErrors({ pixKey: "Não foi possível consultar a chave agora. Tente de novo." }))
      .finally(() => setLooking(false));
  }

  const serverErrors = state.status === "error" ? state.fieldErrors : undefined;
  const amountError = errors.amount ?? serverErrors?.amount;
  const keyError = errors.pixKey ?? serverErrors?.pixKey;
  const sourceError = errors.source ?? serverErrors?.source;

  const availableStat = (
    <div className={ui.stat} style={{ marginBottom: 16 }}>
      <span className={ui.statLabel}>Disponível para saque</span>
      <span className={ui.statValue} data-testid="cash-out-available">
        {formatBRL(available)}
      </span>
      {sources && (
        <span className={ui.statHint} data-testid="cash-out-available-source">
          {CASH_OUT_SOURCE_LABEL[source]}
        </span>
      )}
    </div>
  );

  if (confirming) {
    const { amountText: sentAmount, amount, after, source, key, description, holder } = confirming;
    return (
      <>
        {availableStat}
        <form action={formAction} className={ui.confirmBox} aria-label="Confirmar saque">
          <input type="hidden" name="amount" value={sentAmount} />
          <input type="hidden" name="source" value={source} />
          <input type="hidden" name="pixKey" value={key.key} />
          <input type="hidden" name="pixKeyType" value={key.type} />
          <input type="hidden" name="description" value={description} />
          <input type="hidden" name="recipientConfirmation" value={confirming.confirmation} />
          <input type="hidden" name={FORM_KEY_FIELD} value={formKey} />
          <strong>Confirme o saque</strong>
          {sources && (
            <div className={ui.summaryRow}>
              <span>Sai de</span>
              <strong data-testid="confirm-source">{CASH_OUT_SOURCE_LABEL[source]}</strong>
            </div>
          )}
          <div className={ui.summaryRow}>
            <span>Destino ({PIX_KEY_TYPE_LABEL[key.type]})</span>
            <strong className={ui.mono} data-testid="confirm-key">
              {key.key}
            </strong>
          </div>
          {holder === "unchecked" ? (
            <div className={ui.summaryRow}>
              <span>Recebedor</span>
              <span className={ui.summaryWraps} data-testid="confirm-holder-unchecked">
                <strong>Não verificado</strong>: o PSP que envia este saque não informa o titular da chave. Confira a chave com quem vai receber.
              </span>
            </div>
          ) : (
            holder && (
              <div className={ui.summaryRow}>
                <span>Recebedor</span>
                <strong className={ui.summaryWraps} data-testid="confirm-holder">
                  {holder.name} · {holder.institution}
                </strong>
              </div>
            )
          )}
          <div className={ui.summaryRow}>
            <span>Valor do saque</span>
            <strong>{formatBRL(amount)}</strong>
          </div>
          <div className={ui.summaryRow}>
            <span>Tarifa</span>
            <strong data-testid="confirm-fee">{formatBRL(fee)}</strong>
          </div>
          <div className={`${ui.summaryRow} ${ui.summaryTotal}`}>
            <span>{sources ? (source === "psp" ? "Sai do saldo no seu PSP" : "Sai do saldo na Arara") : "Sai do seu saldo"}</span>
            <strong>{formatBRL(amount + fee)}</strong>
          </div>
          <div className={ui.summaryRow}>
            <span>{sources ? (source === "psp" ? "Saldo no seu PSP depois" : "Saldo na Arara depois") : "Saldo disponível depois"}</span>
            <strong data-testid="confirm-balance-after">{formatBRL(after ?? 0)}</strong>
          </div>
          <div className={ui.buttonRow}>
            <button type="submit" className={ui.button} disabled={pending}>
              {pending ? "Enviando…" : "Confirmar saque"}
            </button>
            <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={() => setConfirming(null)} disabled={pending}>
              Voltar
            </button>
          </div>
        </form>
      </>
    );
  }

  return (
    <>
      {availableStat}
      <form className={ui.form} onSubmit={review} aria-label="Novo saque" noValidate>
        {state.status === "ok" && (
          <div className={`${ui.alert} ${ui.alertSuccess}`} role="status">
            {state.message}{" "}
            {state.data && <Link href={`/dashboard/cash-out/${state.data.id}`}>Ver detalhes</Link>}
          </div>
        )}
        {state.status === "error" && !serverErrors && (
          <div className={`${ui.alert} ${ui.alertError}`} role="alert">
            {state.message}
          </div>
        )}
        {/* Read-only while the key is looked up: what the confirmation shows is what was asked. */}
        <fieldset disabled={looking} className={ui.frozen} data-testid="cash-out-fields">
          {sources && (
            <fieldset className={ui.choices} aria-describedby={sourceError ? "source-msg" : undefined}>
              <legend className={ui.label}>De onde sai o dinheiro</legend>
              {(["arara", "psp"] as const).map((s) => (
                <label key={s} className={ui.choice} data-testid={`cash-out-source-${s}`}>
                  <input
                    type="radio"
                    name="source"
                    value={s}
                    checked={source === s}
                    onChange={() => {
                      setSource(s);
                      setErrors((prev) => {
                        const next = { ...prev };
                        delete next.source;
                        delete next.amount;
                        return next;
                      });
                    }}
                  />
                  <span className={ui.choiceBody}>
                    <span className={ui.choiceTitle}>
                      <span>{CASH_OUT_SOURCE_LABEL[s]}</span>
                      <span className={ui.choiceFigure}>{formatBRL(balances[s])}</span>
                    </span>
                    <span className={`${ui.small} ${ui.muted}`}>
                      {s === "arara"
                        ? "Cartões liberados, boletos e PIX do sandbox. A Arara envia o saque."
                        : sources.pspReady
                          ? "PIX recebidos no seu PSP. O saque sai da sua conta Efí (Pix Envio)."
                          : "PIX recebidos no seu PSP. Para sacar daqui, configure o Pix Envio da Efí."}
                    </span>
                  </span>
                </label>
              ))}
              {sourceError && (
                <span id="source-msg" className={ui.fieldError} role="alert">
                  {sourceError}
                  {!sources.pspReady && (
                    <>
                      {" "}
                      <Link href="/dashboard/settings/pix">Abrir Recebimento PIX</Link>
                    </>
                  )}
                </span>
              )}
            </fieldset>
          )}
          <div className={ui.field}>
            <label htmlFor="amount">Valor (R$)</label>
            <input
              id="amount"
              name="amount"
              inputMode="decimal"
              placeholder="0,00"
              className={ui.input}
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              aria-invalid={amountError ? true : undefined}
              aria-describedby="amount-msg"
            />
            <span id="amount-msg" className={amountError ? ui.fieldError : ui.hint}>
              {amountError ?? `Disponível: ${formatBRL(available)}${fee ? ` · tarifa ${formatBRL(fee)}` : " · sem tarifa"}`}
            </span>
          </div>
          <div className={ui.field}>
            <label htmlFor="pixKey">Chave PIX de destino</label>
            <input
              id="pixKey"
              name="pixKey"
              className={ui.input}
              autoComplete="off"
              value={pixKey}
              onChange={(e) => setPixKey(e.target.value)}
              placeholder="CPF, CNPJ, e-mail, celular com +55 ou chave aleatória"
              aria-invalid={keyError ? true : undefined}
              aria-describedby="pixkey-msg"
            />
            <span id="pixkey-msg" className={keyError ? ui.fieldError : key?.ok ? ui.fieldOk : ui.hint} aria-live="polite">
              {keyError ??
                (key?.ok
                  ? `${PIX_KEY_TYPE_LABEL[key.type]} detectado: ${key.key}`
                  : key
                    ? "Chave ainda não reconhecida."
                    : "O tipo é detectado automaticamente.")}
            </span>
          </div>
          <PixKeyTypeSelect label="Tipo da chave" value={pixKeyType} onChange={setPixKeyType} />
          <div className={ui.field}>
            <label htmlFor="description">Descrição (opcional)</label>
            <input
              id="description"
              className={ui.input}
              maxLength={140}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              placeholder="Ex.: transferência para a conta da empresa"
            />
          </div>
          <div>
            <button type="submit" className={ui.button} disabled={looking}>
              {looking ? "Consultando a chave…" : "Revisar saque"}
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}
