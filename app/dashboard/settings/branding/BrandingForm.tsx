"use client";

import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/auth/action";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { updateBrandingAction } from "./actions";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import ui from "@/components/dashboard/ui.module.css";

type Values = { displayName: string; brandColor: string; supportEmail: string; supportPhone: string; logoUrl: string | null };

export function BrandingForm({ initial }: { initial: Values }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(updateBrandingAction, { status: "idle" });
  const [fields, setFields] = useState<Record<string, string>>({
    displayName: initial.displayName,
    brandColor: initial.brandColor,
    supportEmail: initial.supportEmail,
    supportPhone: initial.supportPhone,
  });
  const bind = (name: string) => ({
    id: name,
    name,
    value: fields[name] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setFields((v) => ({ ...v, [name]: e.target.value })),
    "aria-invalid": errors?.[name] ? true : undefined,
    "aria-describedby": errors?.[name] ? `${name}-error` : `${name}-hint`,
    className: ui.input,
  });
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  const note = (f: string, hint: string) => <FieldErrorText errors={errors} name={f} hint={hint} />;

  return (
    <form action={formAction} method="post" encType="multipart/form-data" className={ui.form} aria-label="Marca do checkout">
      <ActionAlert state={state} />
      <div className={ui.field}>
        <label htmlFor="displayName">Nome exibido no checkout</label>
        <input {...bind("displayName")} maxLength={80} placeholder="Como o pagador conhece sua loja" />
        {note("displayName", "Se ficar em branco, usamos o nome da empresa.")}
      </div>
      <div className={ui.field}>
        <label htmlFor="brandColor">Cor da marca</label>
        <input {...bind("brandColor")} maxLength={20} placeholder="#0f766e" autoComplete="off" />
        {note("brandColor", "Hexadecimal. Precisa de contraste de 4,5:1 com texto branco (botões); senão usamos a cor padrão.")}
      </div>
      <div className={ui.field}>
        <label htmlFor="logo">Logo</label>
        {initial.logoUrl ? (
          // eslint-disable-next-line @next/next/no-img-element
          <img src={initial.logoUrl} alt="Logo atual" width={56} height={56} style={{ objectFit: "contain", borderRadius: 10, border: "1px solid #e2e8f0" }} data-testid="current-logo" />
        ) : null}
        <input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" className={ui.input} aria-describedby={errors?.logo ? "logo-error" : "logo-hint"} aria-invalid={errors?.logo ? true : undefined} />
        {note("logo", "PNG, JPEG ou WebP, até 256 KB. Quadrado fica melhor.")}
        {initial.logoUrl ? (
          <label style={{ display: "flex", gap: 8, alignItems: "center", fontWeight: 400 }}>
            <input type="checkbox" name="removeLogo" /> Remover logo
          </label>
        ) : null}
      </div>
      <div className={`${ui.grid} ${ui.grid2}`}>
        <div className={ui.field}>
          <label htmlFor="supportEmail">E-mail de suporte</label>
          <input {...bind("supportEmail")} type="email" maxLength={200} />
          {note("supportEmail", "Mostrado em todas as telas do checkout.")}
        </div>
        <div className={ui.field}>
          <label htmlFor="supportPhone">WhatsApp ou telefone de suporte</label>
          <input {...bind("supportPhone")} type="tel" inputMode="tel" maxLength={30} />
          {note("supportPhone", "Com DDD. Celulares aparecem com link para o WhatsApp.")}
        </div>
      </div>
      <button type="submit" className={ui.button} disabled={pending}>
        {pending ? "Salvando…" : "Salvar marca"}
      </button>
    </form>
  );
}
