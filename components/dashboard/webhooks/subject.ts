/** What a list of webhook events belongs to: a transaction (its refunds' events too) or a cash-out. */
export type WebhookSubject = { kind: "transaction" | "cash_out"; id: number };

/** The form field that carries the subject's id to the page's actions. */
export const subjectField = (s: WebhookSubject) => (s.kind === "transaction" ? "transactionId" : "cashOutId");

/** The subject in the sentences of the list ("desta transação", "deste saque"). */
export function subjectNoun(s: WebhookSubject): { inThis: string; ofThis: string; ofA: string } {
  return s.kind === "transaction"
    ? { inThis: "nesta transação", ofThis: "desta transação", ofA: "de uma transação" }
    : { inThis: "neste saque", ofThis: "deste saque", ofA: "de um saque" };
}
