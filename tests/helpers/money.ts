/**
 * Money test helpers: real API calls to pay, and readers that hold the balance and the statement
 * against each other. No mocks: everything goes through the route handlers and the database.
 */
import { expect } from "vitest";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { getDb } from "@/lib/db/client";
import { checkLedger } from "@/lib/ledger/check";
import { call } from "./app";

const customer = {
  name: "Maria Silva",
  email: "maria@example.com",
  phone: "(11) 98765-4321",
  document: { type: "cpf", number: "111.444.777-35" },
};

/** A PIX charge created through the API and paid through the sandbox move. */
export async function paidPix(a: CreatedAccount, amount: number) {
  const created = await call("POST", "/api/v1/transactions", {
    auth: a.secretKey,
    body: { paymentMethod: "pix", amount, customer, items: [{ title: "Pedido", unitPrice: amount, quantity: 1, tangible: false }] },
  });
  expect(created.status, created.text).toBe(201);
  const paid = await call("PUT", `/api/v1/transactions/${created.body.data.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.data.status).toBe("paid");
  return paid.body.data as { id: number; amount: number; paidAmount: number; refundedAmount: number; status: string };
}

/** A card charge approved at creation (sandbox test card 4111 1111 1111 1111). */
export async function paidCard(a: CreatedAccount, amount: number, installments = 1) {
  const token = await call("POST", `/api/v1/card-token?publicKey=${a.publicKey}`, {
    body: { number: "4111111111111111", holderName: "MARIA SILVA", expirationMonth: "12", expirationYear: "2035", cvv: "123" },
  });
  expect(token.status, token.text).toBe(200);
  const created = await call("POST", "/api/v1/transactions", {
    auth: a.secretKey,
    body: {
      paymentMethod: "credit_card",
      amount,
      installments,
      customer,
      ip: "203.0.113.7",
      card: { hash: token.text },
      items: [{ title: "Pedido", unitPrice: amount, quantity: 1, tangible: false }],
    },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.data.status).toBe("paid");
  return created.body.data as { id: number; amount: number; status: string };
}

export type Balance = { available: number; availableAtPsp: number; waitingFunds: number; reserved: number; total: number };
export type Entry = {
  id: number;
  type: string;
  account: "available" | "waiting_funds" | "available_at_psp";
  amount: number;
  balanceAfter: number;
  transactionId: number | null;
  cashOutId: number | null;
  description: string;
  createdAt: string;
};

export async function balanceOf(a: CreatedAccount): Promise<Balance> {
  const res = await call("GET", "/api/v1/balance", { auth: a.secretKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Every statement entry, following the cursor (newest first). */
export async function statementOf(a: CreatedAccount, query = "", limit = 7): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const qs = new URLSearchParams(query);
    qs.set("limit", String(limit));
    if (cursor) qs.set("cursor", cursor);
    const res = await call("GET", `/api/v1/balance/statement?${qs}`, { auth: a.secretKey });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data.data);
    cursor = res.body.data.nextCursor;
    if (!cursor) return out;
  }
  throw new Error("statement did not end");
}

/**
 * The balance, the statement and the ledger tell one story: per account, the entries chain
 * (oldest to newest, each balanceAfter = previous + amount, from zero), the last balanceAfter is the
 * balance, and the whole database passes the ledger check. Returns the balance.
 */
export async function expectBooksAgree(a: CreatedAccount): Promise<Balance> {
  const balance = await balanceOf(a);
  const entries = await statementOf(a);
  const ids = entries.map((e) => e.id);
  expect(ids, "statement is newest first").toEqual([...ids].sort((x, y) => y - x));
  const balanceOfAccount = { available: balance.available, available_at_psp: balance.availableAtPsp, waiting_funds: balance.waitingFunds };
  for (const account of ["available", "available_at_psp", "waiting_funds"] as const) {
    const chain = entries.filter((e) => e.account === account).reverse();
    let running = 0;
    for (const e of chain) {
      running += e.amount;
      expect(e.balanceAfter, `entry ${e.id} (${e.type}) on ${account}`).toBe(running);
    }
    expect(running, `${account}: sum of statement entries is the balance`).toBe(balanceOfAccount[account]);
  }
  expect(balance.total).toBe(balance.available + balance.availableAtPsp + balance.waitingFunds + balance.reserved);
  const check = await checkLedger(getDb());
  expect(check.violations).toEqual([]);
  return balance;
}

export function cashOut(a: CreatedAccount, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call("POST", "/api/v1/cashOut/request", { auth: a.secretKey, body, headers });
}
