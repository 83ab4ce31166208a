import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { savePspSettings } from "@/lib/services/psp/api-pix-settings";
import { systemContext } from "@/lib/services/context";
import { closeApiPixClients } from "@/lib/processors/api-pix/config";
import { closeEfiClients } from "@/lib/processors/payouts/efi";
import { localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "./api-pix-psp";
import { paidPix } from "./money";
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
    local.psp = await startApiPixPsp({ pki: local.pki, keys });
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
 * A merchant with R$ 198,02 available (a sandbox PIX of R$ 200,00), then switched to the local PSP with
 * `receivingKey` and these cash-out settings. Returns the account and the settings as saved.
 */
export async function efiAccount(name: string, local: { psp: ApiPixPsp; pki: TestPki }, receivingKey: string, payout: { payoutEfi?: boolean; payoutPayerKey?: string }) {
  const account = await createTestAccount(name);
  await paidPix(account, 20_000);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, account.companyId));
  const saved = await savePspSettings(systemContext(row), { ...localPspSettings(local.psp, local.pki, receivingKey), ...payout });
  expect(saved.webhook).toEqual({ registered: true });
  return { account, saved };
}
