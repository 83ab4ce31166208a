import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import type { FeeView } from "@/lib/domain/net-amount";
import { installmentsText } from "@/lib/domain/installments";
import { FeeStat } from "@/components/dashboard/FeeStat";
import { formatBRL, formatDateTime } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

/** The values row of a transaction: amount, paid, refunded, fee (`fee`: feeViewOf, the ledger's figures). */
export function TransactionSummary({ t, paid, fee }: { t: TransactionRow; paid: number; fee: FeeView }) {
  return (
    <section className={`${ui.grid} ${ui.grid4}`} aria-label="Valores">
      <div className={`${ui.card} ${ui.stat}`}>
        <span className={ui.statLabel}>Valor</span>
        <span className={ui.statValue} data-testid="tx-amount">
          {formatBRL(t.amount)}
        </span>
        {t.installments > 1 && (
          <span className={ui.statHint} data-testid="tx-installments">
            {/* What the card was charged, as it bills it: the first installment carries the centavos the split leaves. */}
            {t.paidAmount > 0 ? `em ${installmentsText(t.paidAmount, t.installments)}` : `em ${t.installments}x`}
            {/* The plan's interest: the card was charged more than the order (paidAmount, the plan's total). */}
            {t.paidAmount > t.amount ? ` com juros (total ${formatBRL(t.paidAmount)})` : t.paidAmount === t.amount ? " sem juros" : ""}
          </span>
        )}
      </div>
      <div className={`${ui.card} ${ui.stat}`}>
        <span className={ui.statLabel}>Pago</span>
        <span className={ui.statValue}>{formatBRL(paid)}</span>
        <span className={ui.statHint}>{t.paidAt ? `em ${formatDateTime(t.paidAt)}` : "ainda não pago"}</span>
      </div>
      <div className={`${ui.card} ${ui.stat}`}>
        <span className={ui.statLabel}>Reembolsado</span>
        <span className={ui.statValue} data-testid="tx-refunded">
          {formatBRL(t.refundedAmount)}
        </span>
      </div>
      <FeeStat view={fee} />
    </section>
  );
}
