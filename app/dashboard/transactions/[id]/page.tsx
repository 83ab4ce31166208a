import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { newFormKey } from "@/lib/auth/idempotent-action";
import { getTransactionDetail } from "@/lib/services/transactions/transaction-detail";
import { orNotFound } from "@/components/dashboard/or-not-found";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { StatusBadge } from "@/components/dashboard/Badge";
import { displayStatus, formatBRL, formatDateTime, METHOD_LABEL, TX_STATUS_LABEL } from "@/components/dashboard/format";
import { TransactionSummary } from "@/components/dashboard/transaction/TransactionSummary";
import { CustomerCard } from "@/components/dashboard/transaction/CustomerCard";
import { ItemsCard } from "@/components/dashboard/transaction/ItemsCard";
import { DeliveryCard } from "@/components/dashboard/transaction/DeliveryCard";
import { hasDelivery } from "@/lib/domain/delivery";
import { PaymentCard } from "@/components/dashboard/transaction/PaymentCard";
import { WebhookDeliveries } from "@/components/dashboard/webhooks/WebhookDeliveries";
import { RefundCard } from "@/components/dashboard/transaction/RefundCard";
import { SandboxCard } from "@/components/dashboard/transaction/SandboxCard";
import { TimelineCard } from "@/components/dashboard/transaction/TimelineCard";
import { LinkPaidNotice } from "@/components/dashboard/transaction/LinkPaidNotice";
import { deliveryAction, redeliverAction, refundAction, sandboxMoveAction, skipAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Transação" };

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireSession();
  const { id } = await params;
  const detail = await orNotFound(getTransactionDetail(ctx, id));
  const { transaction: t } = detail;
  // An open charge of a payment link another charge already paid: said, nothing to pay (transaction-detail.ts).
  const { linkPaidBy, sandboxMoves, fee } = detail;

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/transactions", label: "Transações" }}
        title={
          <span style={{ display: "inline-flex", alignItems: "center", gap: 12, flexWrap: "wrap" }}>
            Transação #{t.id} <StatusBadge status={displayStatus(t, ctx.now)} labels={TX_STATUS_LABEL} />
          </span>
        }
        description={`${METHOD_LABEL[t.paymentMethod] ?? t.paymentMethod} · criada em ${formatDateTime(t.createdAt)}`}
        actions={
          <a className={`${ui.button} ${ui.secondary}`} href={detail.secureUrl} target="_blank" rel="noreferrer">
            Abrir checkout ↗
          </a>
        }
      />

      {linkPaidBy !== null && <LinkPaidNotice t={t} paidById={linkPaidBy} />}

      {t.duplicateOfId !== null && t.status !== "paid" && (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="duplicate-payment" style={{ marginBottom: 16 }}>
          <strong>Pagamento em duplicidade, devolvido.</strong> Este pagamento chegou quando o link de pagamento já
          estava pago pela <Link href={`/dashboard/transactions/${t.duplicateOfId}`}>transação #{t.duplicateOfId}</Link>. Ele foi registrado e
          devolvido integralmente ao pagador, sem tarifa: seu saldo não muda.
        </div>
      )}
      {t.duplicateOfId !== null && t.status === "paid" && (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="duplicate-payment" style={{ marginBottom: 16 }}>
          <strong>Pagamento em duplicidade, a devolver.</strong> Este pagamento chegou quando o link de pagamento já estava pago pela{" "}
          <Link href={`/dashboard/transactions/${t.duplicateOfId}`}>transação #{t.duplicateOfId}</Link>, no seu PSP, sem tarifa. A devolução
          integral ao pagador é pedida ao PSP e só é registrada quando ele a confirma (veja a linha do tempo); o valor fica reservado no seu
          saldo até lá. Se o PSP não a realizar, o valor volta ao disponível e o pagamento continua aqui: reembolse-o por esta página.
        </div>
      )}

      {detail.refundingAtPsp > 0 && t.duplicateOfId === null && (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="psp-refund-open" style={{ marginBottom: 16 }}>
          <strong>Devolução em andamento no seu PSP: {formatBRL(detail.refundingAtPsp)}.</strong> O valor fica reservado no seu saldo, e
          a transação só conta como reembolsada quando o PSP confirmar a devolução ao pagador (veja a linha do tempo). Se o PSP não a
          realizar, o valor volta ao disponível.
        </div>
      )}

      {detail.pspRefundFailed && detail.refundingAtPsp === 0 && (
        <div className={`${ui.alert} ${ui.alertWarning}`} role="note" data-testid="psp-refund-failed" style={{ marginBottom: 16 }}>
          <strong>A devolução de {formatBRL(detail.pspRefundFailed.amount)} não foi realizada pelo seu PSP</strong> (
          {formatDateTime(detail.pspRefundFailed.at)}): {detail.pspRefundFailed.reason} O valor voltou ao seu saldo disponível e nada foi
          devolvido ao pagador; você pode pedir o reembolso de novo.
        </div>
      )}

      <TransactionSummary t={t} paid={detail.paid} fee={fee} />

      <div className={`${ui.split} ${ui.section}`}>
        <div className={ui.grid}>
          <CustomerCard t={t} />
          <ItemsCard t={t} />
          {hasDelivery(t) && <DeliveryCard t={t} action={deliveryAction} />}
          <PaymentCard t={t} expired={detail.expired} payable={!detail.expired && linkPaidBy === null} />
          <WebhookDeliveries
            subject={{ kind: "transaction", id: t.id }}
            postbackUrl={t.postbackUrl}
            webhooks={detail.webhooks}
            redeliverAction={redeliverAction}
            skipAction={skipAction}
          />
        </div>

        <div className={ui.grid}>
          {(detail.refundable > 0 || t.paidAt !== null) && (
            <RefundCard
              transactionId={t.id}
              refundable={detail.refundable}
              status={t.status}
              refunded={t.refundedAmount}
              refundingAtPsp={detail.refundingAtPsp}
              viaPsp={detail.refundsAtPsp}
              formKey={newFormKey()}
              action={refundAction}
            />
          )}
          {sandboxMoves.length > 0 && <SandboxCard transactionId={t.id} status={t.status} moves={sandboxMoves} action={sandboxMoveAction} />}
          <TimelineCard timeline={detail.timeline} />
        </div>
      </div>
    </>
  );
}
