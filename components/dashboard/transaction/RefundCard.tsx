import { formatBRL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "./form-action";
import { RefundForm } from "./RefundForm";

/** The refund form, with what is still refundable. */
export function RefundCard({
  transactionId,
  refundable,
  viaPsp,
  formKey,
  action,
}: {
  transactionId: number;
  refundable: number;
  /** A PIX received at the merchant's PSP: the refund is a devolução asked of it. */
  viaPsp: boolean;
  formKey: string;
  action: FormAction;
}) {
  return (
    <section className={ui.card} aria-labelledby="reembolso">
      <h2 id="reembolso">Reembolso</h2>
      <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
        Reembolsável: <strong style={{ color: "#0f172a" }}>{formatBRL(refundable)}</strong>
      </p>
      <RefundForm transactionId={transactionId} refundable={refundable} viaPsp={viaPsp} formKey={formKey} action={action} />
    </section>
  );
}
