/**
 * Cash-outs of an account that receives PIX through its own PSP: sent through Efí's Pix Envio of the
 * local PSP (tests/helpers/api-pix-psp, real mutual TLS and OAuth, requests checked against Efí's
 * published contract), followed until REALIZADO or NAO_REALIZADO; and refused when no payout is set up.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { cashOuts, companies, pspPayouts, webhookEvents } from "@/lib/db/schema";
import { systemContext, type Account } from "@/lib/services/context";
import { lookupCashOutRecipient } from "@/lib/services/cash-outs/lookup-pix-key";
import { isEnd2EndId } from "@/lib/domain/pix/end2end";
import { closeEfiClients } from "@/lib/processors/payouts/efi";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { createTestAccount } from "../helpers/accounts";
import { efiAccount, localPspForFile } from "../helpers/psp-accounts";
import { balanceOf, cashOut, expectBooksAgree, paidPix } from "../helpers/money";

const RECEIVING_KEY = "pagamentos@loja.example";
const PAYER_KEY = "saques@loja.example";
const HOOK = "https://merchant.example/hooks/saques";
const local = localPspForFile([RECEIVING_KEY, PAYER_KEY]);

const later = (ms: number) => new Date(Date.now() + ms);

/** A merchant with R$ 198,02 at its PSP (availableAtPsp: a PIX of R$ 200,00 received there), sending its cash-outs through Efí. */
async function pspAccount(payout: { payoutEfi?: boolean; payoutPayerKey?: string }): Promise<CreatedAccount> {
  const { account, saved } = await efiAccount("Loja Efí", local, RECEIVING_KEY, payout);
  expect(saved.view).toMatchObject({ payoutEfi: Boolean(payout.payoutEfi), payoutPayerKey: payout.payoutEfi ? PAYER_KEY : "" });
  return account;
}

async function requestEfiCashOut(a: CreatedAccount, amount: number) {
  const res = await cashOut(a, { amount, pixKey: "maria@example.com", postbackUrl: HOOK });
  expect(res.status, res.text).toBe(201);
  const id: number = res.body.data.id;
  const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
  expect(payout.idEnvio).toMatch(/^[a-zA-Z0-9]{1,35}$/);
  return { id, idEnvio: payout.idEnvio };
}

const rowOf = async (id: number) => (await getDb().select().from(cashOuts).where(eq(cashOuts.id, id)))[0];
const eventStatuses = async (id: number) =>
  (await getDb().select().from(webhookEvents).where(eq(webhookEvents.cashOutId, id)).orderBy(webhookEvents.id)).map((e) => [e.status, e.url]);
const putsOf = (idEnvio: string) => local.psp.efi.putRequests.filter((r) => r.idEnvio === idEnvio);

describe("cash-out through Efí's Pix Envio", () => {
  it("is sent from the merchant's Efí key, followed until REALIZADO, and completes with Efí's end-to-end id and the merchant's webhook", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 5_000);
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 14_802, reserved: 5_000 });
    expect(local.psp.efi.sends.has(idEnvio)).toBe(false);

    await advanceDueCashOuts({ now: later(0) });
    const sent = local.psp.efi.sends.get(idEnvio)!;
    expect(sent.request).toEqual({ valor: "50.00", pagador: { chave: PAYER_KEY, infoPagador: `Saque ${id}` }, favorecido: { chave: "maria@example.com" } });
    expect((await rowOf(id)).status).toBe("processing");

    // Still EM_PROCESSAMENTO at Efí: nothing moves.
    await advanceDueCashOuts({ now: later(10_000) });
    expect((await rowOf(id)).status).toBe("processing");

    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: later(20_000) });
    const done = await rowOf(id);
    expect(done.status).toBe("completed");
    expect(done.end2endId).toBe(sent.e2eId);
    expect(isEnd2EndId(done.end2endId!)).toBe(true);
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 14_802, waitingFunds: 0, reserved: 0, total: 14_802 });
    expect(await eventStatuses(id)).toEqual([
      ["pending", HOOK],
      ["processing", HOOK],
      ["completed", HOOK],
    ]);
    expect(putsOf(idEnvio)).toEqual([{ idEnvio, status: 201 }]);
  });

  it("in one pass with sandbox cash-outs due before and after it, each is stepped once and Efí is asked once", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const sandbox = await createTestAccount("Loja Sandbox");
    await paidPix(sandbox, 10_000);
    const sandboxCashOut = async () => {
      const res = await cashOut(sandbox, { amount: 100, pixKey: "maria@example.com" });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as number;
    };
    const before = [await sandboxCashOut(), await sandboxCashOut()];
    const { id, idEnvio } = await requestEfiCashOut(a, 1_000);
    const after = await sandboxCashOut();

    // The claim steps the first two, leases the Efí one (the rows after it stay due), asks Efí outside
    // the lock; the next claim steps the last one.
    expect(await advanceDueCashOuts({ now: later(0) })).toBe(4);
    for (const c of [...before, after]) expect((await rowOf(c)).status).toBe("processing");
    expect((await rowOf(id)).status).toBe("processing");
    expect(putsOf(idEnvio)).toEqual([{ idEnvio, status: 201 }]);
    expect(await advanceDueCashOuts({ now: later(0) })).toBe(0);
  });

  it("NAO_REALIZADO fails the cash-out and releases amount and fee back to the available balance", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 3_000);
    await advanceDueCashOuts({ now: later(0) });
    local.psp.efi.settle(idEnvio, "NAO_REALIZADO");
    await advanceDueCashOuts({ now: later(10_000) });
    const failed = await rowOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.failReason).toContain("NAO_REALIZADO");
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 19_802, waitingFunds: 0, reserved: 0, total: 19_802 });
    expect((await eventStatuses(id)).map(([s]) => s)).toEqual(["pending", "processing", "failed"]);
  });

  it("a send refused by Efí (422 pagamento_negado) fails at once and releases the money", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id } = await requestEfiCashOut(a, 2_000);
    local.psp.efi.denyNext();
    await advanceDueCashOuts({ now: later(0) });
    const failed = await rowOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.failReason).toContain("pagamento_negado");
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 19_802, reserved: 0 });
  });

  it("a 5xx on the first send is retried later with the same idEnvio, and Efí makes one transfer", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 1_000);
    local.psp.failNext(1, 503, "api");
    await advanceDueCashOuts({ now: later(0) });
    expect((await rowOf(id)).status).toBe("pending");
    expect(local.psp.efi.sends.has(idEnvio)).toBe(false);
    const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
    expect(payout).toMatchObject({ sendAttempts: 1, pspStatus: null });
    expect(payout.lastError).toContain("psp_unavailable");

    // Not before the retry's time.
    await advanceDueCashOuts({ now: later(1_000) });
    expect((await rowOf(id)).status).toBe("pending");
    await advanceDueCashOuts({ now: later(6_000) });
    expect((await rowOf(id)).status).toBe("processing");
    expect(local.psp.efi.sends.has(idEnvio)).toBe(true);
    // The 503 never reached Efí's handler; the retry did, once.
    expect(putsOf(idEnvio)).toEqual([{ idEnvio, status: 201 }]);
    expect(local.psp.requests.filter((r) => r.path === `/v3/gn/pix/${idEnvio}`).map((r) => r.status)).toEqual([503, 201]);
  });

  it("a send whose answer was lost is never sent twice: the retry meets 409 id_envio_duplicado and follows the first", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 1_500);
    local.psp.efi.loseNextAnswer();
    await advanceDueCashOuts({ now: later(0) });
    // Efí made the transfer, Arara only saw a 504: still pending, to be tried again.
    const first = local.psp.efi.sends.get(idEnvio)!;
    expect((await rowOf(id)).status).toBe("pending");
    await advanceDueCashOuts({ now: later(6_000) });
    expect(putsOf(idEnvio).map((r) => r.status)).toEqual([504, 409]);
    expect((await rowOf(id)).status).toBe("processing");
    const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
    expect(payout.e2eId).toBe(first.e2eId);
    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: later(20_000) });
    expect(await rowOf(id)).toMatchObject({ status: "completed", end2endId: first.e2eId });
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 18_302, reserved: 0 });
  });

  it("a retry of a send whose answer was lost that meets a 429 waits, and follows the first transfer: the money is never returned while Efí holds it", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 5_000);
    local.psp.efi.loseNextAnswer();
    await advanceDueCashOuts({ now: later(0) });
    expect(local.psp.efi.sends.has(idEnvio)).toBe(true);
    local.psp.failNext(1, 429, "api");
    await advanceDueCashOuts({ now: later(6_000) });
    // Rate limited before Efí's own duplicate check: nothing was decided.
    expect((await rowOf(id)).status).toBe("pending");
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 19_802 - 5_000, reserved: 5_000 });
    await advanceDueCashOuts({ now: later(30_000) }); // the second retry, 15 s after the 429
    expect((await rowOf(id)).status).toBe("processing");
    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: later(60_000) });
    expect(await rowOf(id)).toMatchObject({ status: "completed", end2endId: local.psp.efi.sends.get(idEnvio)!.e2eId });
    // One transfer: the lost answer's, followed after a 409 (the 429 never reached Efí's handler).
    expect(putsOf(idEnvio).map((r) => r.status)).toEqual([504, 409]);
    expect((await eventStatuses(id)).map(([s]) => s)).toEqual(["pending", "processing", "completed"]);
  });

  it("a retry refused with another 4xx is not taken as a refusal while Efí holds the first send: it is read back and followed", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 2_500);
    local.psp.efi.loseNextAnswer();
    await advanceDueCashOuts({ now: later(0) });
    local.psp.failNext(1, 400, "api");
    await advanceDueCashOuts({ now: later(6_000) });
    const row = await rowOf(id);
    expect(row.status).toBe("processing");
    const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
    expect(payout.e2eId).toBe(local.psp.efi.sends.get(idEnvio)!.e2eId);
    expect(await balanceOf(a)).toMatchObject({ reserved: 2_500 });
  });

  it("a first send met by a 429, or by a refused access token, is tried again later instead of failing", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const { id, idEnvio } = await requestEfiCashOut(a, 1_000);
    local.psp.failNext(1, 429, "api");
    await advanceDueCashOuts({ now: later(0) });
    expect((await rowOf(id)).status).toBe("pending");
    expect(local.psp.efi.sends.has(idEnvio)).toBe(false);
    closeEfiClients(); // a new client asks for a token first
    local.psp.failNext(1, 400, "token");
    await advanceDueCashOuts({ now: later(6_000) });
    expect((await rowOf(id)).status).toBe("pending");
    const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
    expect(payout.lastError).toContain("token");
    await advanceDueCashOuts({ now: later(60_000) });
    expect((await rowOf(id)).status).toBe("processing");
    expect(putsOf(idEnvio).map((r) => r.status)).toEqual([201]);
  });
});

describe("an account receiving through its PSP without a payout provider", () => {
  it("is refused with 422 and the reason, and no money moves", async () => {
    const a = await pspAccount({});
    const before = await expectBooksAgree(a);
    const res = await cashOut(a, { amount: 1_000, pixKey: "maria@example.com" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: "unprocessable" });
    expect(res.body.message).toContain("payout_not_configured");
    expect(await expectBooksAgree(a)).toEqual(before);
    expect(await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId))).toEqual([]);
  });

  it("the settings refuse a payer key that is not a PIX key", async () => {
    await expect(pspAccount({ payoutEfi: true, payoutPayerKey: "não é chave" })).rejects.toMatchObject({ code: "validation_error" });
  });
});

describe("the recipient shown before a cash-out is confirmed", () => {
  it("is looked up by the processor that sends the cash-out: a name from the sandbox's DICT for Arara's payouts, none for Efí's (which has no lookup)", async () => {
    const a = await pspAccount({ payoutEfi: true, payoutPayerKey: PAYER_KEY });
    const [company] = await getDb().select().from(companies).where(eq(companies.id, a.companyId));
    const ctx = systemContext(company as Account);
    const key = { pixKey: "+55 61 99999-0000", amount: 1000, formKey: "form-1" };
    // Efí's Pix Envio is told only the key: no name is shown, rather than one no one checked.
    expect(await lookupCashOutRecipient(ctx, { ...key, source: "psp" })).toEqual({
      type: "phone",
      key: "+5561999990000",
      checked: false,
      holder: null,
      // The merchant confirms the key itself: the send may carry this.
      confirmation: expect.stringMatching(/^\d+\.[\w-]{43}$/),
    });
    // The account's default source is its PSP's (it receives PIX there).
    expect(await lookupCashOutRecipient(ctx, key)).toMatchObject({ checked: false, holder: null });
    // Arara's payouts (the sandbox here) answer with their DICT.
    const arara = await lookupCashOutRecipient(ctx, { ...key, source: "arara" });
    expect(arara).toMatchObject({ checked: true, holder: { institution: expect.stringContaining("Sandbox") } });
    expect(arara.holder!.name).not.toBe("");
  });
});
