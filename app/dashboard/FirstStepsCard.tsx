import Link from "next/link";
import type { FirstStepId, FirstSteps } from "@/lib/services/accounts/first-steps";
import ui from "@/components/dashboard/ui.module.css";
import s from "./first-steps.module.css";

const TEXT: Record<FirstStepId, { title: string; detail: string; href: string; cta: string }> = {
  payment_link: {
    title: "Crie um link de pagamento",
    detail: "Cobre por PIX, cartão ou boleto sem escrever código.",
    href: "/dashboard/payment-links",
    cta: "Criar link",
  },
  api_keys: {
    title: "Pegue as chaves da API",
    detail: "Para cobrar pelo seu site ou sistema.",
    href: "/dashboard/developers",
    cta: "Ver chaves",
  },
  pix_details: {
    title: "Confira os dados que aparecem no PIX",
    detail: "Nome e cidade que o pagador vê no banco.",
    href: "/dashboard/settings",
    cta: "Conferir dados",
  },
};

/** The overview's next steps for a new account, until its first paid sale (lib/services/accounts/first-steps.ts). */
export function FirstStepsCard({ firstSteps }: { firstSteps: FirstSteps }) {
  const done = firstSteps.steps.filter((x) => x.done).length;
  return (
    <section className={`${ui.card} ${s.card}`} aria-labelledby="primeiros-passos" data-testid="first-steps">
      <div className={s.head}>
        <h2 id="primeiros-passos">Primeiros passos</h2>
        <span className={`${ui.muted} ${ui.small}`} data-testid="first-steps-count">
          {done} de {firstSteps.steps.length} feitos
        </span>
      </div>
      <ol className={s.list}>
        {firstSteps.steps.map((step) => {
          const t = TEXT[step.id];
          return (
            <li key={step.id} className={s.item} data-step={step.id} data-done={step.done}>
              <span className={s.mark} aria-hidden="true">
                {step.done ? "✓" : ""}
              </span>
              <span className={s.body}>
                <Link href={t.href} className={s.title}>
                  {t.title}
                </Link>
                <span className={s.detail}>{t.detail}</span>
              </span>
              <span className={step.done ? s.stateDone : s.stateTodo}>{step.done ? "Feito" : "A fazer"}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
