import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getCashOutDetail } from "@/lib/services/cash-outs/cash-out-detail";
import { orNotFound } from "@/components/dashboard/or-not-found";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { StatusBadge } from "@/components/dashboard/Badge";
import { cashOutFailureLabel, CASH_OUT_STATUS_LABEL, formatBRL, formatDateTimeSeconds, PIX_KEY_TYPE_LABEL } from "@/components/dashboard/format";
import { fundsAccountOfCashOut } from "@/lib/domain/ledger";
import ui from "@/components/dashboard/ui.module.css";
import { cashOutWaiting } from "@/lib/services/cash-outs/psp-waiting";
import { CashOutWaitingNotice } from "../CashOutWaitingNotice";
import { WebhookDeliveries } from "@/components/dashboard/webhooks/WebhookDeliveries";
import { redeliverCashOutEventAction, skipCashOutEventAction } from "./actions";

export const metadata: Metadata = { title: "Saque" };

/**
 * The total line, by what happened to the money (journals.ts): held in reserve while the PSP works,
 * debited once the transfer completed, returned to the balance when it failed.
 */
function totalLabel(status: string, atPsp: boolean): string {
  const balance = atPsp ? "saldo no seu PSP" : "saldo";
  if (status === "completed") return `Debitado do ${balance}`;
  if (status === "failed") return `Debitado e devolvido ao ${balance}`;
  return `Reservado do ${balance}`;
}

export default async function CashOutDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireSession();
  const { id } = await params;
  const { cashOut: c, webhooks } = await orNotFound(getCashOutDetail(ctx, id));
  const waiting = cashOutWaiting(c, c.psp);
  const atPsp = fundsAccountOfCashOut(c) === "available_at_psp";
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/cash-out", label: "Saques" }}
        title={
          <span style={{ display: "inline-flex", alignItems: "center", gap: 12, flexWrap: "wrap" }}>
            Saque #{c.id} <StatusBadge status={c.status} labels={CASH_OUT_STATUS_LABEL} />
          </span>
        }
        description={`Solicitado em ${formatDateTimeSeconds(c.createdAt)}`}
      />
      {waiting && <CashOutWaitingNotice waiting={waiting} status={c.status} />}
      <div className={`${ui.grid} ${ui.grid2}`}>
        <section className={ui.card} aria-labelledby="valores">
          <h2 id="valores">Valores</h2>
          <div className={ui.form} style={{ gap: 8 }}>
            <div className={ui.summaryRow} data-testid="cash-out-amount">
              <span>{c.status === "completed" ? "Valor transferido" : "Valor do saque"}</span>
              <strong>{formatBRL(c.amount)}</strong>
            </div>
            <div className={ui.summaryRow}>
              <span>Tarifa</span>
              <strong>{formatBRL(c.fee)}</strong>
            </div>
            <div className={`${ui.summaryRow} ${ui.summaryTotal}`} data-testid="cash-out-total">
              <span>{totalLabel(c.status, atPsp)}</span>
              <strong>{formatBRL(c.amount + c.fee)}</strong>
            </div>
            {c.status === "failed" && <p className={`${ui.small} ${ui.muted}`}>O valor e a tarifa voltaram para {atPsp ? "o saldo no seu PSP" : "o saldo disponível"}.</p>}
          </div>
        </section>
        <section className={ui.card} aria-labelledby="destino">
          <h2 id="destino">Transferência</h2>
          <dl className={ui.dl}>
            {atPsp && (
              <>
                <dt>Origem</dt>
                <dd data-testid="cash-out-source">Sua conta Efí (Pix Envio)</dd>
              </>
            )}
            <dt>Chave PIX</dt>
            <dd className={ui.mono}>{c.pixKey}</dd>
            <dt>Tipo</dt>
            <dd>{PIX_KEY_TYPE_LABEL[c.pixKeyType] ?? c.pixKeyType}</dd>
            {c.description && (
              <>
                <dt>Descrição</dt>
                <dd>{c.description}</dd>
              </>
            )}
            {c.externalRef && (
              <>
                <dt>Sua referência</dt>
                <dd className={ui.mono}>{c.externalRef}</dd>
              </>
            )}
            <dt>End-to-end</dt>
            <dd className={ui.mono}>{c.end2endId ?? "—"}</dd>
            {c.failReason && (
              <>
                <dt>Motivo da falha</dt>
                <dd data-testid="cash-out-fail-reason">{cashOutFailureLabel(c.failReason)}</dd>
              </>
            )}
            {c.status === "failed" ? (
              <>
                <dt>Falhou em</dt>
                <dd>{formatDateTimeSeconds(c.updatedAt)}</dd>
              </>
            ) : (
              <>
                <dt>Concluído em</dt>
                <dd>{c.completedAt ? formatDateTimeSeconds(c.completedAt) : "—"}</dd>
              </>
            )}
          </dl>
        </section>
      </div>
      <div className={ui.section}>
        <WebhookDeliveries
          subject={{ kind: "cash_out", id: c.id }}
          postbackUrl={c.postbackUrl}
          webhooks={webhooks}
          redeliverAction={redeliverCashOutEventAction}
          skipAction={skipCashOutEventAction}
        />
      </div>
    </>
  );
}
