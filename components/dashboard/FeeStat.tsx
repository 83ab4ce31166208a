import { formatBRL } from "./format";
import ui from "./ui.module.css";

/** The fee card of a transaction: a refused charge moved no money, so it has no fee and no net amount. */
export function FeeStat({ status, fee, amount, feeFixed }: { status: string; fee: number; amount: number; feeFixed: number }) {
  if (status === "refused") {
    return (
      <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
        <span className={ui.statLabel}>Tarifa</span>
        <span className={ui.statValue}>—</span>
        <span className={ui.statHint}>sem tarifa: a cobrança foi recusada</span>
      </div>
    );
  }
  return (
    <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
      <span className={ui.statLabel}>Tarifa</span>
      <span className={ui.statValue}>{formatBRL(fee)}</span>
      <span className={ui.statHint}>
        líquido {formatBRL(amount - fee)}
        {feeFixed > 0 ? ` · inclui fixo de ${formatBRL(feeFixed)}` : ""}
      </span>
    </div>
  );
}
