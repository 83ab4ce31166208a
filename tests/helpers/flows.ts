/**
 * Real API flows for the proof tests (conformance, fuzzing, security): every step goes through the
 * route handlers with `call()`, as a merchant would, so what the tests see is what clients see.
 */
import { sql } from "drizzle-orm";
import { call, type CallResult } from "./app";
import { randomCpf } from "./accounts";
import { tokenize } from "./cash-in";
import { getDb } from "@/lib/db/client";
import { TRANSACTION_EXAMPLES } from "@/lib/openapi/operations";

export const APPROVED_CARD = { number: "4111111111111111", holderName: "MARIA SILVA", expirationMonth: "12", expirationYear: "2034", cvv: "123" };
export const REFUSED_CARD = { ...APPROVED_CARD, number: "4000000000000002" };

function expectOk(res: CallResult, what: string): any {
  if (res.status >= 300) throw new Error(`${what} failed with ${res.status}: ${res.text.slice(0, 500)}`);
  return res.body;
}

export { tokenize } from "./cash-in";
export { paidPix } from "./money";

export function pixBody(over: Record<string, unknown> = {}) {
  return { ...structuredClone(TRANSACTION_EXAMPLES.pix), customer: { ...TRANSACTION_EXAMPLES.pix.customer, document: { type: "cpf", number: randomCpf() } }, ...over };
}

export function boletoBody(over: Record<string, unknown> = {}) {
  return { ...structuredClone(TRANSACTION_EXAMPLES.boleto), ...over };
}

export function cardBody(hash: string, over: Record<string, unknown> = {}) {
  return { ...structuredClone(TRANSACTION_EXAMPLES.credit_card), card: { hash }, ...over };
}

export async function createPix(secretKey: string, over: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await call("POST", "/api/v1/transactions", { auth: secretKey, body: pixBody(over) }), "create pix").data;
}

export async function createBoleto(secretKey: string, over: Record<string, unknown> = {}): Promise<any> {
  return expectOk(await call("POST", "/api/v1/transactions", { auth: secretKey, body: boletoBody(over) }), "create boleto").data;
}

export async function createCard(account: { secretKey: string; publicKey: string }, card = APPROVED_CARD, over: Record<string, unknown> = {}): Promise<any> {
  const hash = await tokenize(account.publicKey, card);
  return expectOk(await call("POST", "/api/v1/transactions", { auth: account.secretKey, body: cardBody(hash, over) }), "create card").data;
}

export async function sandboxMove(secretKey: string, id: number, status: string): Promise<any> {
  return expectOk(await call("PUT", `/api/v1/transactions/${id}/test`, { auth: secretKey, body: { status } }), `move ${id} to ${status}`).data;
}

export async function requestCashOut(secretKey: string, body: Record<string, unknown> = { amount: 1000, pixKey: "maria@example.com" }): Promise<any> {
  return expectOk(await call("POST", "/api/v1/cashOut/request", { auth: secretKey, body }), "cash-out").data;
}

export async function createCheckout(secretKey: string, body: Record<string, unknown> = { amount: 5000, description: "Link" }): Promise<any> {
  return expectOk(await call("POST", "/api/v1/checkouts", { auth: secretKey, body }), "create checkout").data;
}

export const MONEY_TABLES = ["transactions", "ledger_postings", "webhook_events", "cash_outs"] as const;

/** Row counts of the tables a rejected request must not touch. */
export async function rowCounts(tables: readonly string[] = MONEY_TABLES): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const rows = (await getDb().execute(sql.raw(`select count(*)::int as n from ${t}`))) as unknown as { n: number }[] | { rows: { n: number }[] };
    const list = Array.isArray(rows) ? rows : rows.rows;
    out[t] = Number(list[0].n);
  }
  return out;
}
