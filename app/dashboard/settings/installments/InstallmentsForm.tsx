"use client";

import { startTransition, useActionState, useState } from "react";
import type { ActionState } from "@/lib/auth/action";
import { MAX_CARD_INSTALLMENTS, parseRatePercent, pricedInstallmentOptions, ratePercentText, type InstallmentPlan } from "@/lib/domain/installments";
import { formatBRL } from "@/lib/domain/money";
import { ActionAlert } from "@/components/dashboard/ActionAlert";
import { updateInstallmentsAction } from "./actions";
import { FieldErrorText } from "@/components/dashboard/FieldErrorText";
import ui from "@/components/dashboard/ui.module.css";

/** The preview's example order: R$ 1.000,00 reaches every count (each installment stays above R$ 5,00). */
const EXAMPLE_AMOUNT = 100_000;


export function InstallmentsForm({ initial }: { initial: InstallmentPlan }) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(updateInstallmentsAction, { status: "idle" });
  const [max, setMax] = useState(String(initial.maxInstallments));
  const [free, setFree] = useState(String(initial.interestFree));
  const [rate, setRate] = useState(ratePercentText(initial.monthlyRateBp));
  const errors = state.status === "error" ? state.fieldErrors : undefined;
  const counts = Array.from({ length: MAX_CARD_INSTALLMENTS }, (_, i) => i + 1);

  const bp = parseRatePercent(rate);
  const plan = { maxInstallments: Number(max), interestFree: Math.min(Number(free), Number(max)), monthlyRateBp: bp ?? 0 };
  const preview = bp !== null && bp <= 1_000 ? pricedInstallmentOptions(EXAMPLE_AMOUNT, plan) : [];

  const described = (f: string) => ({ "aria-invalid": errors?.[f] ? true : undefined, "aria-describedby": errors?.[f] ? `${f}-error` : `${f}-hint` });
  const note = (f: string, hint: string) => <FieldErrorText errors={errors} name={f} hint={hint} />;

  return (
    // Submitted by hand, not through `action`: React resets a form after its action, and the selects
    // would then show their first option while the state (and the preview) keep the chosen ones.
    <form
      className={ui.form}
      aria-label="Parcelamento"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <ActionAlert state={state} />
      <div className={`${ui.grid} ${ui.grid2}`}>
        <div className={ui.field}>
          <label htmlFor="maxInstallments">Número máximo de parcelas</label>
          <select id="maxInstallments" name="maxInstallments" className={ui.input} value={max} onChange={(e) => {
              const next = e.target.value;
              setMax(next);
              // Lowering the maximum below the interest-free count brings that count down with it.
              if (Number(free) > Number(next)) setFree(next);
            }}
            {...described("maxInstallments")}
          >
            {counts.map((n) => (
              <option key={n} value={n}>
                {n === 1 ? "1x (só à vista)" : `${n}x`}
              </option>
            ))}
          </select>
          {note("maxInstallments", "Cada parcela fica em pelo menos R$ 5,00: pedidos pequenos mostram menos opções.")}
        </div>
        <div className={ui.field}>
          <label htmlFor="interestFree">Parcelas sem juros</label>
          <select id="interestFree" name="interestFree" className={ui.input} value={free} onChange={(e) => setFree(e.target.value)} {...described("interestFree")}>
            {counts.map((n) => (
              <option key={n} value={n} disabled={n > Number(max)}>
                {`até ${n}x`}
              </option>
            ))}
          </select>
          {note("interestFree", "Até este número, o pagador paga só o valor do pedido.")}
        </div>
      </div>
      <div className={ui.field}>
        <label htmlFor="monthlyRate">Juros ao mês cobrados do pagador (%)</label>
        <input id="monthlyRate" name="monthlyRate" className={ui.input} inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} maxLength={6} {...described("monthlyRate")} />
        {note("monthlyRate", "Nas parcelas além das sem juros, pela Tabela Price. Ex.: 1,99. Até 10,00; 0 deixa todas sem juros.")}
      </div>
      <button type="submit" className={ui.button} disabled={pending}>
        {pending ? "Salvando…" : "Salvar parcelamento"}
      </button>
      <section aria-labelledby="preview-title" data-testid="installments-preview">
        <h3 id="preview-title">Como o pagador vê um pedido de {formatBRL(EXAMPLE_AMOUNT)}</h3>
        {/* Scrolls sideways on a narrow phone: focusable so a keyboard can scroll it too. */}
        <div className={ui.tableWrap} tabIndex={0} role="region" aria-labelledby="preview-title">
          <table className={ui.table}>
            <thead>
              <tr>
                <th scope="col">Parcelas</th>
                <th scope="col" className={ui.num}>
                  Valor da parcela
                </th>
                <th scope="col" className={ui.num}>
                  Total
                </th>
                <th scope="col">Juros</th>
              </tr>
            </thead>
            <tbody>
              {preview.map((o) => (
                <tr key={o.count}>
                  <td>{o.count}x</td>
                  <td className={ui.num}>
                    {formatBRL(o.each)}
                    {/* The first installment carries the centavos the split leaves: say it, so the row adds up to its total. */}
                    {o.first !== o.each ? ` (1ª de ${formatBRL(o.first)})` : null}
                  </td>
                  <td className={ui.num}>{formatBRL(o.total)}</td>
                  <td>{o.interest ? `${ratePercentText(o.monthlyRateBp)}% a.m.` : "sem juros"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </form>
  );
}
