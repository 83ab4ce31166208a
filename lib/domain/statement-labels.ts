/**
 * The statement in Portuguese: entry types, balances, and an entry's description naming the
 * transaction or cash-out it belongs to. Shared by the dashboard's statement page and its CSV export.
 */
export const ENTRY_TYPE_LABEL: Record<string, string> = {
  payment: "Pagamento",
  fee: "Tarifa",
  refund: "Reembolso",
  chargeback: "Chargeback",
  chargeback_reversal: "Chargeback revertido",
  cash_out: "Saque PIX",
  cash_out_fee: "Tarifa de saque",
  cash_out_reversal: "Saque devolvido",
  settlement: "Liberação de saldo",
  adjustment: "Ajuste",
};

export const ACCOUNT_LABEL: Record<string, string> = {
  available: "Disponível",
  waiting_funds: "A receber",
  reserved: "Reservado",
  available_at_psp: "No seu PSP",
};

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
export function entryDescription(e: { type: string; transactionId: number | null; cashOutId: number | null; description: string }): string {
  if (e.transactionId !== null && OF_TRANSACTION[e.type]) return `${OF_TRANSACTION[e.type]} #${e.transactionId}`;
  if (e.cashOutId !== null && OF_CASH_OUT[e.type]) return `${OF_CASH_OUT[e.type]} #${e.cashOutId}`;
  return e.description;
}
