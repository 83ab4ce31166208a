import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { formatBRL, formatDate, formatDocument } from "@/components/dashboard/format";
import { SettingsForm } from "./SettingsForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Configurações" };

const pct = (bp: number) => `${(bp / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;

function feeText(percentBp: number, fixed: number): string {
  if (percentBp && fixed) return `${pct(percentBp)} + ${formatBRL(fixed)}`;
  if (percentBp) return pct(percentBp);
  return fixed ? formatBRL(fixed) : "Grátis";
}

export default async function SettingsPage() {
  const ctx = await requireSession();
  const a = ctx.account;
  const plan = a.feePlan;
  return (
    <>
      <PageHeader
        title="Configurações"
        description="Dados da empresa, chave PIX de recebimento e tarifas."
        actions={
          <>
            <Link href="/dashboard/settings/installments" className={`${ui.button} ${ui.secondary}`}>
              Parcelamento
            </Link>
            <Link href="/dashboard/settings/branding" className={`${ui.button} ${ui.secondary}`}>
              Marca do checkout
            </Link>
            <Link href="/dashboard/settings/team" className={`${ui.button} ${ui.secondary}`}>
              Equipe
            </Link>
            <Link href="/dashboard/settings/password" className={`${ui.button} ${ui.secondary}`}>
              Senha de acesso
            </Link>
          </>
        }
      />
      <div className={ui.split}>
        <section className={ui.card} aria-labelledby="empresa">
          <h2 id="empresa">Dados da empresa</h2>
          <dl className={ui.dl} style={{ marginBottom: 18 }}>
            <dt>{a.documentType === "cnpj" ? "CNPJ" : "CPF"}</dt>
            <dd>{formatDocument(a.document)}</dd>
            <dt>Conta nº</dt>
            <dd>{a.id}</dd>
            <dt>Cliente desde</dt>
            <dd>{formatDate(a.createdAt)}</dd>
            <dt>Login</dt>
            <dd>
              {ctx.user.email} · <Link href="/dashboard/settings/password">Alterar senha</Link>
            </dd>
          </dl>
          <p className={ui.small} style={{ margin: "0 0 14px" }}>
            <Link href="/dashboard/settings/pix">Recebimento PIX pelo seu próprio PSP (API Pix) →</Link>
          </p>
          <SettingsForm
            initial={{ name: a.name, email: a.email, city: a.city, pixKey: a.pixKey ?? "", address: a.address ?? null }}
          />
        </section>
        <section className={ui.card} aria-labelledby="tarifas">
          <h2 id="tarifas">Tarifas do seu plano</h2>
          <dl className={ui.feeList} data-testid="fee-plan">
            <div>
              <dt>PIX</dt>
              <dd>{feeText(plan.pix.percentBp, plan.pix.fixed)}</dd>
            </div>
            <div>
              <dt>Cartão à vista</dt>
              <dd>{feeText(plan.card.percentBp, plan.card.fixed)}</dd>
            </div>
            <div>
              <dt>Cartão parcelado</dt>
              <dd>+ {pct(plan.card.perExtraInstallmentBp)} por parcela extra</dd>
            </div>
            <div>
              <dt>Boleto</dt>
              <dd>{feeText(plan.boleto.percentBp, plan.boleto.fixed)}</dd>
            </div>
            <div>
              <dt>Saque PIX</dt>
              <dd>{feeText(0, plan.cashOut.fixed)}</dd>
            </div>
          </dl>
          <p className={`${ui.small} ${ui.muted}`} style={{ margin: "12px 0 0" }}>
            Percentuais arredondados ao centavo. Para mudar de plano, fale com o suporte.
          </p>
        </section>
      </div>
    </>
  );
}
