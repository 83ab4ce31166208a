import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { getDashboardOverview } from "@/lib/services/dashboard/dashboard-overview";
import { getFirstSteps } from "@/lib/services/accounts/first-steps";
import { FirstStepsCard } from "./FirstStepsCard";
import { merchantFunds } from "@/components/dashboard/funds";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { METHOD_COLOR, VolumeChart } from "@/components/dashboard/VolumeChart";
import { formatBRL, formatInt, formatLongDate, formatPercent, METHOD_LABEL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Visão geral" };

export default async function OverviewPage() {
  const ctx = await requireSession();
  const [{ balance, showsPsp }, overview, firstSteps] = await Promise.all([merchantFunds(ctx), getDashboardOverview(ctx), getFirstSteps(ctx)]);

  return (
    <>
      <PageHeader
        title="Visão geral"
        description={`Olá, ${ctx.account.name}. Estes são os números dos últimos 30 dias.`}
        actions={
          <Link href="/dashboard/cash-out" className={ui.button}>
            Sacar via PIX
          </Link>
        }
      />

      {firstSteps.show && <FirstStepsCard firstSteps={firstSteps} />}

      <section aria-labelledby="saldo" className={`${ui.grid} ${showsPsp ? ui.grid4 : ui.grid3}`}>
        <h2 id="saldo" className={ui.srOnly}>
          Saldo
        </h2>
        <div className={`${ui.card} ${ui.stat}`} data-testid="balance-available">
          <span className={ui.statLabel}>Disponível para saque</span>
          <span className={ui.statValue}>{formatBRL(balance.available)}</span>
          <span className={ui.statHint}>
            {showsPsp
              ? "Mantido pela Arara: cartões liberados, boletos e PIX do sandbox, menos tarifas, reembolsos e saques"
              : "PIX, boletos e cartões liberados, menos tarifas, reembolsos e saques"}
          </span>
        </div>
        {showsPsp && (
          <div className={`${ui.card} ${ui.stat}`} data-testid="balance-at-psp">
            <span className={ui.statLabel}>Na sua conta do PSP</span>
            <span className={ui.statValue}>{formatBRL(balance.availableAtPsp)}</span>
            <span className={ui.statHint}>PIX recebidos no seu PSP, menos tarifas, reembolsos e saques por lá</span>
          </div>
        )}
        <div className={`${ui.card} ${ui.stat}`} data-testid="balance-waiting">
          <span className={ui.statLabel}>A receber</span>
          <span className={ui.statValue}>{formatBRL(balance.waitingFunds)}</span>
          <span className={ui.statHint}>Vendas no cartão aguardando liberação</span>
        </div>
        <div className={`${ui.card} ${ui.stat}`} data-testid="balance-reserved">
          <span className={ui.statLabel}>Reservado</span>
          <span className={ui.statValue}>{formatBRL(balance.reserved)}</span>
          <span className={ui.statHint}>{showsPsp ? "Saques e devoluções em andamento" : "Saques em andamento"}</span>
        </div>
      </section>

      <section className={ui.section}>
        <div className={ui.card}>
          <div className={ui.cardHeader}>
            <h2>Volume pago por dia</h2>
            <span className={`${ui.muted} ${ui.small}`}>
              {formatLongDate(`${overview.from}T12:00:00Z`)} a {formatLongDate(`${overview.to}T12:00:00Z`)} · total{" "}
              <strong style={{ color: "#0f172a" }} data-testid="volume-total">
                {formatBRL(overview.totals.paidVolume)}
              </strong>
            </span>
          </div>
          <VolumeChart days={overview.days} />
        </div>
      </section>

      <section className={ui.section} aria-labelledby="conversao">
        <h2 id="conversao" className={ui.sectionTitle}>
          Conversão por meio de pagamento
        </h2>
        <div className={`${ui.card} ${ui.cardFlush}`}>
          <div className={ui.tableWrap}>
            <table className={`${ui.table} ${ui.stack}`} data-testid="conversion-table">
              <thead>
                <tr>
                  <th scope="col">Meio</th>
                  <th scope="col" className={ui.num}>
                    Criadas
                  </th>
                  <th scope="col" className={ui.num}>
                    Pagas
                  </th>
                  <th scope="col" className={ui.num}>
                    Conversão
                  </th>
                  <th scope="col" className={ui.num}>
                    Volume pago
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.byMethod.map((m) => (
                  <tr key={m.method} data-method={m.method}>
                    <td data-label="Meio">
                      <span style={{ display: "inline-flex", alignItems: "center", gap: 8, fontWeight: 600 }}>
                        <span className={ui.dot} style={{ background: METHOD_COLOR[m.method] }} />
                        {METHOD_LABEL[m.method]}
                      </span>
                    </td>
                    <td data-label="Criadas" className={ui.num}>
                      {formatInt(m.created)}
                    </td>
                    <td data-label="Pagas" className={ui.num}>
                      {formatInt(m.paid)}
                    </td>
                    <td data-label="Conversão" className={ui.num}>
                      <ConversionBar ratio={m.conversion} />
                    </td>
                    <td data-label="Volume pago" className={ui.num}>
                      {formatBRL(m.paidVolume)}
                    </td>
                  </tr>
                ))}
                <tr>
                  <td data-label="">
                    <strong>Total</strong>
                  </td>
                  <td data-label="Criadas" className={ui.num}>
                    <strong>{formatInt(overview.totals.created)}</strong>
                  </td>
                  <td data-label="Pagas" className={ui.num}>
                    <strong>{formatInt(overview.totals.paid)}</strong>
                  </td>
                  <td data-label="Conversão" className={ui.num}>
                    <strong>{formatPercent(overview.totals.conversion)}</strong>
                  </td>
                  <td data-label="Volume pago" className={ui.num}>
                    <strong>{formatBRL(overview.totals.paidVolume)}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
        </div>
        <p className={`${ui.muted} ${ui.small}`}>
          Conversão = transações pagas ÷ transações criadas no período. Volume pago conta a data do pagamento.
        </p>
      </section>
    </>
  );
}

function ConversionBar({ ratio }: { ratio: number | null }) {
  return (
    <span style={{ display: "inline-flex", alignItems: "center", gap: 8, justifyContent: "flex-end" }}>
      <span
        aria-hidden="true"
        style={{ width: 64, height: 6, borderRadius: 3, background: "#e2e8f0", overflow: "hidden", display: "inline-block" }}
      >
        <span style={{ display: "block", height: "100%", width: `${Math.round((ratio ?? 0) * 100)}%`, background: "#0f766e" }} />
      </span>
      {formatPercent(ratio)}
    </span>
  );
}
