import type { StatementEntry } from "@/lib/services/accounts/list-statement";

const OF_TRANSACTION: Record<string, string> = {
  payment: "Pagamento da transação",
  fee: "Tarifa da transação",
  refund: "Reembolso da transação",
  chargeback: "Chargeback da transação",
  chargeback_reversal: "Chargeback revertido da transação",
  settlement: "Liberação do cartão da transação",
};

const OF_CASH_OUT: Record<string, string> = {
  cash_out: "Saque PIX",
  cash_out_fee: "Tarifa do saque PIX",
  cash_out_reversal: "Devolução do saque PIX",
};

/** The entry in Portuguese, naming the transaction or cash-out it belongs to. */
export function entryDescription(e: Pick<StatementEntry, "type" | "transactionId" | "cashOutId" | "description">): string {
  if (e.transactionId !== null && OF_TRANSACTION[e.type]) return `${OF_TRANSACTION[e.type]} #${e.transactionId}`;
  if (e.cashOutId !== null && OF_CASH_OUT[e.type]) return `${OF_CASH_OUT[e.type]} #${e.cashOutId}`;
  return e.description;
}
