"use client";

import { useActionState, useMemo, useState } from "react";
import type { PostalAddress } from "@/lib/domain/address";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";
import { PixKeyTypeSelect } from "@/components/dashboard/PixKeyTypeSelect";
import { PIX_KEY_TYPE_LABEL } from "@/components/dashboard/format";
import type { ActionState } from "@/lib/auth/action";
import { updateSettingsAction } from "./actions";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import ui from "@/components/dashboard/ui.module.css";
import s from "./settings.module.css";

type Values = { name: string; email: string; city: string; pixKey: string; address: PostalAddress | null };

// The address parts as the form lays them out: [field, label, autocomplete, width class, max length].
const ADDRESS_INPUTS: [keyof PostalAddress & string, string, string, string, number][] = [
  ["zipCode", "CEP", "postal-code", s.span2, 10],
  ["street", "Logradouro", "address-line1", s.span4, 200],
  ["streetNumber", "Número", "off", `${s.span2} ${s.half}`, 20],
  ["complement", "Complemento", "address-line2", `${s.span4} ${s.half}`, 200],
  ["neighborhood", "Bairro", "off", s.span2, 100],
  ["city", "Município", "address-level2", `${s.span3} ${s.half}`, 100],
  ["state", "UF", "address-level1", `${s.span1} ${s.half}`, 2],
];

export function SettingsForm({ initial }: { initial: Values }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(updateSettingsAction, { status: "idle" });
  const [pixKey, setPixKey] = useState(initial.pixKey);
  // The stored key is in DICT form, so detection finds its type; a type is picked only to override it.
  const [pixKeyType, setPixKeyType] = useState("");
  const check = useMemo(() => checkPixKeyInput(pixKey, pixKeyType), [pixKey, pixKeyType]);
  // Controlled, so that what was typed stays in the form when the server sends it back with errors
  // (React resets uncontrolled fields to their defaults after every action).
  const [fields, setFields] = useState<Record<string, string>>(() => ({
    name: initial.name,
    email: initial.email,
    city: initial.city,
    ...Object.fromEntries(ADDRESS_INPUTS.map(([f]) => [`address.${f}`, initial.address?.[f] ?? ""])),
  }));
  const bind = (name: string) => ({
    id: name,
    name,
    value: fields[name] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setFields((v) => ({ ...v, [name]: e.target.value })),
  });
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  // The field's error when it has one, else its hint.
  const err = (f: string, hint?: string) => <FieldErrorText errors={errors} name={f} hint={hint} />;

  return (
    <form action={formAction} className={ui.form} aria-label="Dados da empresa">
      <ActionAlert state={state} />
      <div className={`${ui.grid} ${ui.grid2}`}>
        <div className={ui.field}>
          <label htmlFor="name">Nome da empresa</label>
          <input {...bind("name")} className={ui.input} required aria-invalid={errors?.name ? true : undefined} />
          {err("name")}
        </div>
        <div className={ui.field}>
          <label htmlFor="email">E-mail de contato</label>
          <input {...bind("email")} type="email" className={ui.input} required aria-invalid={errors?.email ? true : undefined} />
          {err("email")}
        </div>
        <div className={ui.field}>
          <label htmlFor="city">Cidade</label>
          <input {...bind("city")} className={ui.input} required aria-invalid={errors?.city ? true : undefined} aria-describedby={errors?.city ? "city-error" : "city-hint"} />
          {err("city", "Aparece no QR Code PIX (sem acentos, até 15 letras).")}
        </div>
      </div>
      <fieldset style={{ border: "1px solid #e2e8f0", borderRadius: 10, padding: 16, margin: 0, display: "grid", gap: 12 }}>
        <legend className={ui.label} style={{ padding: "0 6px" }}>
          Endereço (opcional)
        </legend>
        <p className={`${ui.small} ${ui.muted}`} style={{ margin: 0 }}>
          Impresso nos boletos como endereço do beneficiário.
        </p>
        <div className={s.address}>
          {ADDRESS_INPUTS.map(([field, label, autoComplete, width, maxLength]) => {
            const name = `address.${field}`;
            return (
              <div key={field} className={`${ui.field} ${width}`}>
                <label htmlFor={name}>{label}</label>
                <input
                  {...bind(name)}
                  className={ui.input}
                  autoComplete={autoComplete}
                  maxLength={maxLength}
                  aria-invalid={errors?.[name] ? true : undefined}
                  aria-describedby={errors?.[name] ? `${name}-error` : undefined}
                />
                {err(name)}
              </div>
            );
          })}
        </div>
      </fieldset>
      <fieldset style={{ border: "1px solid #e2e8f0", borderRadius: 10, padding: 16, margin: 0, display: "grid", gap: 12 }}>
        <legend className={ui.label} style={{ padding: "0 6px" }}>
          Chave PIX de recebimento
        </legend>
        <p className={`${ui.small} ${ui.muted}`} style={{ margin: 0 }}>
          As cobranças PIX são geradas para esta chave.
        </p>
        <div className={`${ui.grid} ${ui.grid2}`}>
          <div className={ui.field}>
            <label htmlFor="pixKey">Chave</label>
            <input
              id="pixKey"
              name="pixKey"
              value={pixKey}
              onChange={(e) => setPixKey(e.target.value)}
              className={ui.input}
              required
              autoComplete="off"
              aria-invalid={check ? !check.ok || undefined : errors?.pixKey ? true : undefined}
              aria-describedby="pixKey-status"
            />
            <span id="pixKey-status" className={check?.ok ? ui.fieldOk : ui.fieldError} aria-live="polite">
              {check ? (check.ok ? `${PIX_KEY_TYPE_LABEL[check.type]} válido: ${check.key}` : pixKeyErrorText(check)) : (errors?.pixKey ?? "Informe a chave.")}
            </span>
          </div>
          <PixKeyTypeSelect label="Tipo" name="pixKeyType" value={pixKeyType} onChange={setPixKeyType} />
        </div>
      </fieldset>
      <div>
        <button type="submit" className={ui.button} disabled={pending}>
          {pending ? "Salvando…" : "Salvar alterações"}
        </button>
      </div>
    </form>
  );
}
