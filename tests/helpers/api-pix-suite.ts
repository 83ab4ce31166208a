/**
 * The setup the API Pix integration tests share: a local PSP (real mutual TLS) for the whole file,
 * the PSP's own notifications sent nowhere (the tests hand them to the handler), and after each test
 * no internal error at the PSP and ledger:check passing. Plus the rows the tests read.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/lib/db/client";
import { pspCharges, transactions } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { closeApiPixClients } from "@/lib/processors/api-pix/config";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "./api-pix-psp";

/** Registers the file's hooks; `started` receives the PSP and its PKI once it is up. */
export function localPspSuite(key: string, started: (psp: ApiPixPsp, pki: TestPki) => void): void {
  let psp: ApiPixPsp | undefined;
  beforeAll(async () => {
    const pki = makeTestPki();
    psp = await startApiPixPsp({ pki, keys: [key], allowHttpWebhook: true });
    started(psp, pki);
    // The PSP's notifications are handed to the handler by the tests themselves.
    const { getEnv } = await import("@/lib/env");
    (getEnv() as { baseUrl: string }).baseUrl = "http://127.0.0.1:9";
  });
  afterEach(async () => {
    expect(psp?.internalErrors).toEqual([]);
    expect((await checkLedger(getDb())).violations).toEqual([]);
  });
  afterAll(async () => {
    closeApiPixClients();
    await psp?.close();
  });
}

export const txidOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].txid;
export const txRow = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];
