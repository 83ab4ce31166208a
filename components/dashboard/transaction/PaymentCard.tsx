import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import { KeyBox } from "@/components/ui/KeyBox";
import { formatDate, formatDateTime, METHOD_LABEL, refusalLabel } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

/**
 * How the transaction is paid: method, processor, card, refusal, expiry, PIX and boleto codes. The PIX
 * code is shown only while the charge can still be paid (`payable`: pending, not expired, its payment
 * link not paid by another charge), so nobody passes on a code that can no longer settle anything.
 */
export function PaymentCard({ t, expired, payable }: { t: TransactionRow; expired: boolean; payable: boolean }) {
  return (
    <section className={ui.card} aria-labelledby="pagamento">
      <h2 id="pagamento">Pagamento</h2>
      <dl className={ui.dl}>
        <dt>Meio</dt>
        <dd>{METHOD_LABEL[t.paymentMethod]}</dd>
        <dt>Processador</dt>
        <dd>{t.acquirerType}</dd>
        {t.paymentMethod === "credit_card" && t.cardLastDigits && (
          <>
            <dt>Cartão</dt>
            <dd>
              {(t.cardBrand ?? "").toUpperCase()} {t.cardFirstDigits}••••••{t.cardLastDigits} · {t.cardHolderName}
            </dd>
          </>
        )}
        {t.paymentMethod === "credit_card" && (t.settledAt || t.settleAt) && (
          <>
            <dt>Liberação do valor</dt>
            <dd data-testid="tx-card-release">
              {t.settledAt
                ? `liberado no saldo disponível em ${formatDate(t.settledAt)}`
                : `a receber até ${formatDate(t.settleAt!)}, quando entra no saldo disponível`}
            </dd>
          </>
        )}
        {t.refusedReason && (
          <>
            <dt>Motivo da recusa</dt>
            <dd data-testid="refusal-reason">{refusalLabel(t.refusedReason)}</dd>
          </>
        )}
        {t.expiresAt && t.status === "pending" && (
          <>
            <dt>{t.paymentMethod === "boleto" ? "Vencimento" : "Expira em"}</dt>
            <dd>
              {formatDateTime(t.expiresAt)} {expired && <span className={ui.fieldError}>(expirado)</span>}
            </dd>
          </>
        )}
        {t.pixEnd2end && (
          <>
            <dt>End-to-end</dt>
            <dd className={ui.mono}>{t.pixEnd2end}</dd>
          </>
        )}
        {t.boletoDigitableLine && (
          <>
            <dt>Linha digitável</dt>
            <dd className={ui.mono}>{t.boletoDigitableLine}</dd>
          </>
        )}
      </dl>
      {t.pixQrcode && t.status === "pending" && payable && (
        <div className={ui.field} style={{ marginTop: 14 }}>
          <span className={ui.label}>PIX copia e cola</span>
          <KeyBox value={t.pixQrcode} label="Código PIX copia e cola" />
        </div>
      )}
    </section>
  );
}
