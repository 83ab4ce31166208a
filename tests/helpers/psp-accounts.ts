import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/lib/db/client";
import { companies, pspCharges, transactions } from "@/lib/db/schema";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { savePspSettings } from "@/lib/services/psp/api-pix-settings";
import { systemContext } from "@/lib/services/context";
import { closeApiPixClients } from "@/lib/processors/api-pix/config";
import { closeEfiClients } from "@/lib/processors/payouts/efi";
import { localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "./api-pix-psp";
import { call } from "./app";
import { pixBody } from "./flows";
import { createTestAccount } from "./accounts";

/** A new account that receives PIX through the local PSP (its webhook registered there), with `key` as its PIX key. */
export async function pspConfiguredAccount(name: string, psp: ApiPixPsp, pki: TestPki, key: string) {
  const acc = await createTestAccount(name);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
  const saved = await savePspSettings(systemContext(row), localPspSettings(psp, pki, key));
  expect(saved.webhook).toEqual({ registered: true });
  return acc;
}

/**
 * The local PSP (API Pix with Efí's Pix Envio) for one test file: started before its tests with these
 * PIX keys, stopped after them with the app's clients to it closed; no test may leave it an internal error.
 */
export function localPspForFile(keys: string[]): { readonly psp: ApiPixPsp; readonly pki: TestPki } {
  const local = {} as { psp: ApiPixPsp; pki: TestPki };
  beforeAll(async () => {
    local.pki = makeTestPki();
    local.psp = await startApiPixPsp({ pki: local.pki, keys, allowHttpWebhook: true });
  });
  afterEach(() => {
    expect(local.psp.internalErrors).toEqual([]);
  });
  afterAll(async () => {
    closeApiPixClients();
    closeEfiClients();
    await local.psp?.close();
  });
  return local;
}

/**
 * A PIX of `amount` charged through the merchant's own PSP (the account is set up for it) and paid
 * there; the payment is found by the reconciliation (the notification is dropped). Its money lands in
 * the merchant's `availableAtPsp`, net of the fee.
 */
export async function paidPixAtPsp(account: CreatedAccount, psp: ApiPixPsp, amount: number): Promise<{ id: number }> {
  const r = await call("POST", "/api/v1/transactions", { auth: account.secretKey, body: pixBody({ amount, items: [{ title: "Pedido", unitPrice: amount, quantity: 1, tangible: false }] }) });
  expect(r.status, r.text).toBe(201);
  expect(r.body.data.acquirerType).toBe("api-pix");
  const [charge] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, r.body.data.id));
  await psp.pay(charge.txid, { notify: "drop" });
  await reconcileApiPix({ now: new Date(Date.now() + 5 * 60_000) });
  const [t] = await getDb().select().from(transactions).where(eq(transactions.id, r.body.data.id));
  expect(t.status).toBe("paid");
  return { id: t.id };
}

/**
 * A merchant on the local PSP with `receivingKey` and these cash-out settings, with R$ 198,02 at its PSP
 * (`availableAtPsp`: a PIX of R$ 200,00 received there, before the cash-out settings are saved) and
 * nothing held by Arara. Returns the account and the settings as saved.
 */
export async function efiAccount(name: string, local: { psp: ApiPixPsp; pki: TestPki }, receivingKey: string, payout: { payoutEfi?: boolean; payoutPayerKey?: string }) {
  const account = await createTestAccount(name);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, account.companyId));
  const receiving = await savePspSettings(systemContext(row), localPspSettings(local.psp, local.pki, receivingKey));
  expect(receiving.webhook).toEqual({ registered: true });
  await paidPixAtPsp(account, local.psp, 20_000);
  const saved = await savePspSettings(systemContext(row), { ...localPspSettings(local.psp, local.pki, receivingKey), ...payout });
  expect(saved.webhook).toEqual({ registered: true });
  return { account, saved };
}
