import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import { addressLines, DELIVERY_STATUS_LABEL, mayShip } from "@/lib/domain/delivery";
import { formatBRL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "./form-action";
import { DeliveryForm } from "./DeliveryForm";

/**
 * Where a sale's goods go and how far they got: the address and freight sent with the charge, the
 * delivery status and tracking code (the API's PUT /transactions/{id}/delivery), and, once paid, the
 * form that sets them.
 */
export function DeliveryCard({ t, action }: { t: TransactionRow; action: FormAction }) {
  const lines = addressLines(t.shipping?.address);
  return (
    <section className={ui.card} aria-labelledby="entrega">
      <h2 id="entrega">Entrega</h2>
      <dl className={ui.dl}>
        <dt>Endereço</dt>
        <dd data-testid="delivery-address">
          {lines.length ? (
            lines.map((l, i) => (
              <span key={i} style={{ display: "block" }}>
                {l}
              </span>
            ))
          ) : (
            <span className={ui.muted}>não informado na cobrança</span>
          )}
        </dd>
        {t.shipping?.fee ? (
          <>
            <dt>Frete</dt>
            <dd>{formatBRL(t.shipping.fee)}</dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd data-testid="delivery-status">{DELIVERY_STATUS_LABEL[t.deliveryStatus ?? "waiting"] ?? t.deliveryStatus}</dd>
        {t.trackingCode && (
          <>
            <dt>Rastreio</dt>
            <dd className={ui.mono}>{t.trackingCode}</dd>
          </>
        )}
      </dl>
      {mayShip(t.status) ? (
        <DeliveryForm transactionId={t.id} status={t.deliveryStatus ?? "waiting"} trackingCode={t.trackingCode ?? ""} action={action} />
      ) : (
        <p className={`${ui.small} ${ui.muted}`}>O envio pode ser registrado depois do pagamento.</p>
      )}
    </section>
  );
}
