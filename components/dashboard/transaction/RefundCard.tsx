import { formatBRL, STATUS_LABEL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "./form-action";
import { RefundForm } from "./RefundForm";

/**
 * The refund form, with what is still refundable. Shown for every charge paid at some point: once
 * nothing is left to refund (the refund that completed it, one made elsewhere meanwhile) the card
 * stays, says so, and keeps the outcome of the last submit (its form state lives on), so the success
 * or the refusal of that submit is not lost when the page renders again.
 */
export function RefundCard({
  transactionId,
  refundable,
  status,
  refunded,
  refundingAtPsp = 0,
  viaPsp,
  formKey,
  action,
}: {
  transactionId: number;
  refundable: number;
  status: string;
  refunded: number;
  refundingAtPsp?: number;
  /** A PIX received at the merchant's PSP: the refund is a devolução asked of it. */
  viaPsp: boolean;
  formKey: string;
  action: FormAction;
}) {
  return (
    <section className={ui.card} aria-labelledby="reembolso">
      <h2 id="reembolso">Reembolso</h2>
      {refundable > 0 ? (
        <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
          Reembolsável: <strong style={{ color: "#0f172a" }}>{formatBRL(refundable)}</strong>
        </p>
      ) : (
        <p className={ui.small} style={{ marginTop: -6 }} data-testid="refund-closed">
          {status === "refunded"
            ? `Transação reembolsada: ${formatBRL(refunded)} no total.`
            : refundingAtPsp > 0
              ? `Devolução de ${formatBRL(refundingAtPsp)} em andamento no seu PSP; nada mais a reembolsar por enquanto.`
              : `Nada a reembolsar: a transação está com status ${STATUS_LABEL[status] ?? status}${refunded > 0 ? ` (reembolsado: ${formatBRL(refunded)})` : ""}.`}
        </p>
      )}
      <RefundForm transactionId={transactionId} refundable={refundable} viaPsp={viaPsp} formKey={formKey} action={action} />
    </section>
  );
}
