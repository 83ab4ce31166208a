import Link from "next/link";
import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import ui from "@/components/dashboard/ui.module.css";

/**
 * What happens to an open charge of a payment link another charge already paid, as
 * lib/services/checkouts/link-payment.ts does it: the sandbox refuses to pay it; money that arrives
 * anyway from a rail is recorded and returned in full, without fee (at once when Arara holds it,
 * asked of the merchant's PSP when it arrived there); a card is not charged.
 */
function ifPaidAnyway(t: Pick<TransactionRow, "paymentMethod" | "acquirerType">): string {
  if (t.paymentMethod === "credit_card") return "O cartão não será cobrado.";
  const what = t.paymentMethod === "boleto" ? "este boleto" : "este PIX";
  if (t.acquirerType !== "sandbox") {
    return `Se o pagador pagar ${what} mesmo assim, o pagamento é registrado e a devolução integral ao pagador é pedida ao seu PSP, sem tarifa.`;
  }
  return `Se o pagador pagar ${what} mesmo assim, o valor é devolvido integralmente a ele, automaticamente e sem tarifa: seu saldo não muda.`;
}

/** An open charge of a payment link already paid by another transaction: it is not a debt of the payer. */
export function LinkPaidNotice({ t, paidById }: { t: Pick<TransactionRow, "paymentMethod" | "acquirerType">; paidById: number }) {
  return (
    <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="link-paid-elsewhere" style={{ marginBottom: 16 }}>
      <strong>Link de pagamento já pago.</strong> O pedido do link desta cobrança já foi pago pela{" "}
      <Link href={`/dashboard/transactions/${paidById}`}>transação #{paidById}</Link>: esta cobrança não pode mais ser paga e não é
      uma dívida do pagador. {ifPaidAnyway(t)}
    </div>
  );
}
