import type { FeeView } from "@/lib/domain/net-amount";
import { formatBRL } from "./format";
import ui from "./ui.module.css";

const NO_FEE_BECAUSE = {
  refused: "sem tarifa: a cobrança foi recusada",
  expired: "sem tarifa: a cobrança expirou sem pagamento",
  link_paid: "sem tarifa: o link já foi pago por outra cobrança",
} as const;

const RETURNED_BY = { refunds: "reembolsos", chargeback: "o chargeback", refunds_and_chargeback: "reembolsos e chargeback" } as const;

/**
 * The fee card of a transaction (lib/domain/net-amount.ts decides the figures): "—" when no money
 * moved and none will; an estimate, charged only if paid, while the charge is open; else the fee and
 * the net the payment credited, the statement's figure; after refunds or a chargeback, the net that
 * leaves, since the fee is kept.
 */
export function FeeStat({ view }: { view: FeeView }) {
  if (view.kind === "none") {
    return (
      <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
        <span className={ui.statLabel}>Tarifa</span>
        <span className={ui.statValue}>—</span>
        <span className={ui.statHint}>{NO_FEE_BECAUSE[view.reason]}</span>
      </div>
    );
  }
  const fixed = view.fixed > 0 ? ` · inclui fixo de ${formatBRL(view.fixed)}` : "";
  if (view.kind === "estimate") {
    return (
      <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
        <span className={ui.statLabel}>Tarifa estimada</span>
        <span className={ui.statValue}>{formatBRL(view.fee)}</span>
        <span className={ui.statHint}>
          cobrada só se for paga · líquido previsto {formatBRL(view.net)}
          {fixed}
        </span>
      </div>
    );
  }
  if (view.returnedBy !== null) {
    // Refunded (or charged back): the fee is kept (docs/money.md), so what the sale leaves is its net less what went back.
    return (
      <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
        <span className={ui.statLabel}>Tarifa</span>
        <span className={ui.statValue}>{formatBRL(view.fee)}</span>
        <span className={ui.statHint}>
          líquido após {RETURNED_BY[view.returnedBy]} <span className={ui.nowrap}>{formatBRL(view.netAfterReturns)}</span> · a tarifa não é devolvida (líquido da
          venda <span className={ui.nowrap}>{formatBRL(view.net)}</span>)
          {fixed}
        </span>
      </div>
    );
  }
  return (
    <div className={`${ui.card} ${ui.stat}`} data-testid="tx-fee">
      <span className={ui.statLabel}>Tarifa</span>
      <span className={ui.statValue}>{formatBRL(view.fee)}</span>
      <span className={ui.statHint}>
        líquido {formatBRL(view.net)}
        {fixed}
      </span>
    </div>
  );
}
