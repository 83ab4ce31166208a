/**
 * Cash-outs through Efí's Pix Envio that cannot go on by themselves never wait forever without a word,
 * and never return money Efí may still pay out:
 *
 * - PSP settings incomplete (certificate cleared, configuration deleted) before any send reached Efí:
 *   failed after NOT_CONFIGURED_FAIL_MS, amount and fee back to available, one `failed` webhook;
 * - the same after a send whose outcome is unknown (a 500, a reset connection, an answer lost after Efí
 *   made the transfer, an instance that stopped during the call): never failed, shown as waiting;
 * - accepted by Efí (processing) but its read-back answers 404: never failed, asked about less and less
 *   often, shown as waiting for Efí's confirmation.
 *
 * Against the local PSP's Pix Envio (tests/helpers/api-pix-psp), with the job's clock injected.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, cashOuts, pspPayouts, webhookEvents } from "@/lib/db/schema";
import { closeEfiClients } from "@/lib/processors/payouts/efi";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { getCashOut } from "@/lib/services/cash-outs/get-cash-out";
import { listCashOuts } from "@/lib/services/cash-outs/list-cash-outs";
import { cashOutWaiting, NOT_CONFIGURED_FAIL_MS } from "@/lib/services/cash-outs/psp-waiting";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { ListCashOutsQuery } from "@/lib/schemas/money";
import { efiAccount, localPspForFile } from "../helpers/psp-accounts";
import { call } from "../helpers/app";
import { balanceOf, cashOut, expectBooksAgree } from "../helpers/money";

const RECEIVING_KEY = "pagamentos@loja.example";
const PAYER_KEY = "saques@loja.example";
const HOOK = "https://merchant.example/hooks/saques";
const MIN = 60_000;
const local = localPspForFile([RECEIVING_KEY, PAYER_KEY]);

/** A merchant with R$ 198,02 at its PSP (availableAtPsp: a PIX of R$ 200,00 received there), sending its cash-outs through Efí. */
async function efiCashOutAccount(name: string): Promise<CreatedAccount> {
  return (await efiAccount(name, local, RECEIVING_KEY, { payoutEfi: true, payoutPayerKey: PAYER_KEY })).account;
}

/** A cash-out of R$ 50,00 (fee 0), and the time the job's clock starts from for it. */
async function requestEfiCashOut(a: CreatedAccount) {
  const res = await cashOut(a, { amount: 5_000, pixKey: "maria@example.com", postbackUrl: HOOK });
  expect(res.status, res.text).toBe(201);
  const id: number = res.body.data.id;
  const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id));
  const t0 = Date.now();
  return { id, idEnvio: payout.idEnvio, at: (ms: number) => new Date(t0 + ms) };
}

const rowOf = async (id: number) => (await getDb().select().from(cashOuts).where(eq(cashOuts.id, id)))[0];
const payoutOf = async (id: number) => (await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, id)))[0];
const eventStatuses = async (id: number) => (await getDb().select().from(webhookEvents).where(eq(webhookEvents.cashOutId, id)).orderBy(webhookEvents.id)).map((e) => e.status);
const putsOf = (idEnvio: string) => local.psp.efi.putRequests.filter((r) => r.idEnvio === idEnvio).map((r) => r.status);
const apiRead = async (a: CreatedAccount, id: number) => {
  const res = await call("GET", `/api/v1/cashOut/${id}`, { auth: a.secretKey });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

/** What the dashboard's pages read with (only the account is used). */
const sessionOf = (a: CreatedAccount) => ({ account: { id: a.companyId } }) as Parameters<typeof getCashOut>[0];

/**
 * Cuts the sends the local PSP holds (hangNext) until `step` ends: the transport tries a reset kept-alive
 * connection once more on a new one, which is held and cut too, so the send ends in a reset connection.
 */
async function cutHeldSends(step: Promise<unknown>) {
  let done = false;
  const ended = step.finally(() => (done = true));
  while (!done) {
    await vi.waitFor(() => expect(done || local.psp.hungRequests() > 0).toBe(true), { timeout: 10_000, interval: 10 });
    local.psp.releaseHung();
    await new Promise((r) => setTimeout(r, 20));
  }
  await ended;
}

type ConfigRow = typeof accountPspConfigs.$inferSelect;
async function configOf(a: CreatedAccount): Promise<ConfigRow> {
  return (await getDb().select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, a.companyId)))[0];
}
/** The merchant's client certificate cleared from the settings (a saved change: a new version). */
async function clearCertificate(a: CreatedAccount): Promise<ConfigRow> {
  const before = await configOf(a);
  await getDb()
    .update(accountPspConfigs)
    .set({ certPem: null, keyPemEnc: null, pkcs12Enc: null, pkcs12PasswordEnc: null, updatedAt: new Date(before.updatedAt.getTime() + 1_000) })
    .where(eq(accountPspConfigs.companyId, a.companyId));
  return before;
}
async function restore(a: CreatedAccount, saved: ConfigRow) {
  await getDb()
    .update(accountPspConfigs)
    .set({ certPem: saved.certPem, keyPemEnc: saved.keyPemEnc, pkcs12Enc: saved.pkcs12Enc, pkcs12PasswordEnc: saved.pkcs12PasswordEnc, updatedAt: new Date(saved.updatedAt.getTime() + 2_000) })
    .where(eq(accountPspConfigs.companyId, a.companyId));
}

describe("PSP settings incomplete before any send reached Efí", () => {
  it("waits, visibly, for the bound, then fails through the executor: money back, one failed webhook, nothing sent", async () => {
    const a = await efiCashOutAccount("Loja sem certificado");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    await clearCertificate(a);

    await advanceDueCashOuts({ now: at(0) });
    expect((await rowOf(id)).status).toBe("pending");
    const waiting = (await apiRead(a, id)).waiting;
    expect(waiting).toEqual({
      code: "not_configured",
      message: "Configuração do PSP incompleta: falta certificado.",
      since: at(0).toISOString(),
      failsAt: at(NOT_CONFIGURED_FAIL_MS).toISOString(),
      mayHaveReachedPsp: false,
    });
    // The list shows it too, and so does what the dashboard reads.
    const listed = await call("GET", "/api/v1/cashOut", { auth: a.secretKey });
    expect(listed.body.data.data.find((c: { id: number }) => c.id === id).waiting).toEqual(waiting);
    const read = await getCashOut(sessionOf(a), id);
    expect(cashOutWaiting(read, read.psp)).toEqual(waiting);

    // Retried on its schedule within the bound, never sent, still holding the money.
    for (const ms of [5_000, 20_000, 2 * MIN, 10 * MIN, 30 * MIN, 59 * MIN]) await advanceDueCashOuts({ now: at(ms) });
    expect((await rowOf(id)).status).toBe("pending");
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 14_802, reserved: 5_000 });
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", since: at(0).toISOString() });

    await advanceDueCashOuts({ now: at(NOT_CONFIGURED_FAIL_MS + 15 * MIN) });
    const failed = await rowOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.failReason).toMatch(/^Configuração do PSP incompleta: falta certificado\. O saque não foi enviado à Efí.*o valor e a tarifa voltaram ao saldo no seu PSP\.$/);
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 19_802, waitingFunds: 0, reserved: 0, total: 19_802 });
    expect(await eventStatuses(id)).toEqual(["pending", "failed"]);
    expect((await apiRead(a, id)).waiting).toBeNull();
    expect(putsOf(idEnvio)).toEqual([]);

    // Nothing more happens to it.
    await advanceDueCashOuts({ now: at(NOT_CONFIGURED_FAIL_MS + 60 * MIN) });
    expect(await eventStatuses(id)).toEqual(["pending", "failed"]);
  });

  it("the PSP configuration deleted: the same, with its reason", async () => {
    const a = await efiCashOutAccount("Loja sem configuração");
    const { id, at } = await requestEfiCashOut(a);
    await getDb().delete(accountPspConfigs).where(eq(accountPspConfigs.companyId, a.companyId));
    await advanceDueCashOuts({ now: at(0) });
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", message: "Configuração do PSP incompleta: a configuração do PSP foi removida.", mayHaveReachedPsp: false });
    await advanceDueCashOuts({ now: at(NOT_CONFIGURED_FAIL_MS) });
    expect(await rowOf(id)).toMatchObject({ status: "failed" });
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 19_802, reserved: 0 });
    expect(await eventStatuses(id)).toEqual(["pending", "failed"]);
  });

  it("settings completed again within the bound: the cash-out is sent and completes, the waiting gone", async () => {
    const a = await efiCashOutAccount("Loja que troca o certificado");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    const saved = await clearCertificate(a);
    await advanceDueCashOuts({ now: at(0) });
    await advanceDueCashOuts({ now: at(40 * MIN) });
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", since: at(0).toISOString(), failsAt: at(NOT_CONFIGURED_FAIL_MS).toISOString() });
    await restore(a, saved);
    await advanceDueCashOuts({ now: at(70 * MIN) });
    expect((await rowOf(id)).status).toBe("processing");
    expect(putsOf(idEnvio)).toEqual([201]);
    expect((await apiRead(a, id)).waiting).toBeNull();
    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: at(71 * MIN) });
    expect((await rowOf(id)).status).toBe("completed");
    expect(await eventStatuses(id)).toEqual(["pending", "processing", "completed"]);
  });

  it("the bound counts from the start of the current run of incomplete settings, not from the first one ever", async () => {
    const a = await efiCashOutAccount("Loja intermitente");
    const { id, at } = await requestEfiCashOut(a);
    const saved = await clearCertificate(a);
    await advanceDueCashOuts({ now: at(0) });
    // The settings are complete for one attempt, whose token Efí refuses (nothing sent): the run is broken.
    await restore(a, saved);
    closeEfiClients();
    local.psp.failNext(1, 400, "token");
    await advanceDueCashOuts({ now: at(50 * MIN) });
    expect((await payoutOf(id)).lastError).toContain("token");
    await clearCertificate(a);
    await advanceDueCashOuts({ now: at(80 * MIN) });
    await advanceDueCashOuts({ now: at(100 * MIN) });
    expect((await rowOf(id)).status).toBe("pending");
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", since: at(80 * MIN).toISOString(), failsAt: at(140 * MIN).toISOString() });
    await advanceDueCashOuts({ now: at(141 * MIN) });
    expect((await rowOf(id)).status).toBe("failed");
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 19_802, reserved: 0 });
  });
});

describe("a send whose outcome is unknown, then PSP settings incomplete", () => {
  // Each fault, and whether it holds the send open (cut once the PSP has it).
  const faults: [string, () => boolean][] = [
    ["a 500 from Efí's gateway", () => (local.psp.failNext(1, 500, "api"), false)],
    ["a connection reset during the send", () => (local.psp.hangNext(2, "api"), true)],
    ["an answer lost after Efí made the transfer (504)", () => (local.psp.efi.loseNextAnswer(), false)],
  ];
  it.each(faults)("%s: never failed, however long; shown as waiting and possibly at Efí", async (_name, fault) => {
    const a = await efiCashOutAccount("Loja ambígua");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    const hangs = fault();
    const step = advanceDueCashOuts({ now: at(0) });
    await (hangs ? cutHeldSends(step) : step);
    expect((await rowOf(id)).status).toBe("pending");
    expect((await payoutOf(id)).mayHaveReachedPsp).toBe(true);

    const saved = await clearCertificate(a);
    for (const ms of [10 * MIN, 2 * 60 * MIN, 24 * 60 * MIN]) await advanceDueCashOuts({ now: at(ms) });
    expect((await rowOf(id)).status).toBe("pending");
    expect(await balanceOf(a)).toMatchObject({ available: 0, availableAtPsp: 14_802, reserved: 5_000 });
    expect(await eventStatuses(id)).toEqual(["pending"]);
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", failsAt: null, mayHaveReachedPsp: true, since: at(10 * MIN).toISOString() });

    // Once the settings are back, the send is tried again with the same idEnvio and followed to its end:
    // one transfer at most.
    await restore(a, saved);
    await advanceDueCashOuts({ now: at(25 * 60 * MIN) });
    expect((await rowOf(id)).status).toBe("processing");
    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: at(25 * 60 * MIN + MIN) });
    expect(await rowOf(id)).toMatchObject({ status: "completed", end2endId: local.psp.efi.sends.get(idEnvio)!.e2eId });
    expect(putsOf(idEnvio).filter((s) => s === 201 || s === 504)).toHaveLength(1);
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 14_802, waitingFunds: 0, reserved: 0, total: 14_802 });
  });

  it("a send whose instance lost its lease before recording the answer counts as possibly at Efí", async () => {
    const a = await efiCashOutAccount("Loja instância parada");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    local.psp.hangNext(2, "api");
    // The first instance sends and waits; its lease (a minute) runs out meanwhile.
    const first = advanceDueCashOuts({ now: at(0) });
    await vi.waitFor(() => expect(local.psp.hungRequests()).toBe(1), { timeout: 10_000, interval: 10 });
    await clearCertificate(a);
    // Another instance takes the cash-out after the lease: the settings are incomplete now.
    await advanceDueCashOuts({ now: at(2 * MIN) });
    await cutHeldSends(first); // its answer (a reset connection) is not applied: the row moved on
    expect(await payoutOf(id)).toMatchObject({ mayHaveReachedPsp: true, sendInFlight: false });
    await advanceDueCashOuts({ now: at(3 * 60 * MIN) });
    expect((await rowOf(id)).status).toBe("pending");
    expect((await apiRead(a, id)).waiting).toMatchObject({ code: "not_configured", failsAt: null, mayHaveReachedPsp: true });
    // The first instance's send (tried twice by the transport on a reset connection), never answered.
    expect(local.psp.requests.filter((r) => r.path === `/v3/gn/pix/${idEnvio}`).map((r) => r.status)).toEqual([null, null]);
  });
});

describe("accepted by Efí, but its read-back answers 404", () => {
  it("is never failed: asked about with a growing delay, shown as waiting for Efí's confirmation, and followed when Efí shows it", async () => {
    const a = await efiCashOutAccount("Loja sem confirmação");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    await advanceDueCashOuts({ now: at(0) });
    expect((await rowOf(id)).status).toBe("processing");
    const sent = local.psp.efi.sends.get(idEnvio)!;
    local.psp.efi.sends.delete(idEnvio); // Efí no longer shows it

    const nextStep = async () => (await rowOf(id)).nextStepAt!.getTime();
    await advanceDueCashOuts({ now: at(5_000) });
    expect(await nextStep()).toBe(at(10_000).getTime()); // first 404: asked again after 5 s
    expect((await apiRead(a, id)).waiting).toBeNull();
    await advanceDueCashOuts({ now: at(5_000 + 5 * MIN) });
    expect(await nextStep()).toBe(at(5_000 + 5 * MIN + 30_000).getTime()); // a tenth of the 5 minutes not found
    expect((await apiRead(a, id)).waiting).toBeNull();

    await advanceDueCashOuts({ now: at(5_000 + 11 * MIN) });
    expect(await nextStep()).toBe(at(5_000 + 11 * MIN + 66_000).getTime());
    const waiting = (await apiRead(a, id)).waiting;
    expect(waiting).toMatchObject({ code: "confirmation_pending", since: at(5_000).toISOString(), failsAt: null, mayHaveReachedPsp: true });
    expect(waiting.message).toContain("Aguardando confirmação da Efí");
    expect(waiting.message).toContain(sent.e2eId);
    const { rows } = await listCashOuts(sessionOf(a), ListCashOutsQuery.parse({}));
    expect(cashOutWaiting(rows[0], rows[0].psp)).toEqual(waiting);

    // Hours later: asked every 15 minutes at most, still processing, still holding the money.
    await advanceDueCashOuts({ now: at(5 * 60 * MIN) });
    expect(await nextStep()).toBe(at(5 * 60 * MIN + 15 * MIN).getTime());
    await advanceDueCashOuts({ now: at(5 * 60 * MIN + MIN) });
    expect(await nextStep()).toBe(at(5 * 60 * MIN + 15 * MIN).getTime()); // not due: not asked
    expect((await rowOf(id)).status).toBe("processing");
    expect(await balanceOf(a)).toMatchObject({ reserved: 5_000 });
    expect(await eventStatuses(id)).toEqual(["pending", "processing"]);

    // Efí shows it again, made.
    local.psp.efi.sends.set(idEnvio, sent);
    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: at(5 * 60 * MIN + 15 * MIN) });
    expect(await rowOf(id)).toMatchObject({ status: "completed", end2endId: sent.e2eId });
    expect((await apiRead(a, id)).waiting).toBeNull();
    expect(await eventStatuses(id)).toEqual(["pending", "processing", "completed"]);
    expect(await payoutOf(id)).toMatchObject({ notFoundSince: null, lastError: null });
  });
});

describe("accepted by Efí and still EM_PROCESSAMENTO", () => {
  it("is asked about at Efí's pace at first, then less and less often (a tenth of the time in processing, at most every 15 minutes), and completes when Efí says so", async () => {
    const a = await efiCashOutAccount("Loja em processamento");
    const { id, idEnvio, at } = await requestEfiCashOut(a);
    await advanceDueCashOuts({ now: at(0) });
    expect((await rowOf(id)).status).toBe("processing");
    expect(local.psp.efi.sends.get(idEnvio)!.status).toBe("EM_PROCESSAMENTO");

    const nextStep = async () => (await rowOf(id)).nextStepAt!.getTime();
    await advanceDueCashOuts({ now: at(5_000) });
    expect(await nextStep()).toBe(at(10_000).getTime()); // seconds in: Efí's own pace, 5 s
    await advanceDueCashOuts({ now: at(10 * MIN) });
    expect(await nextStep()).toBe(at(11 * MIN).getTime()); // ten minutes in: a minute
    await advanceDueCashOuts({ now: at(5 * 60 * MIN) });
    expect(await nextStep()).toBe(at(5 * 60 * MIN + 15 * MIN).getTime()); // hours in: every 15 minutes
    await advanceDueCashOuts({ now: at(5 * 60 * MIN + MIN) });
    expect(await nextStep()).toBe(at(5 * 60 * MIN + 15 * MIN).getTime()); // not due: not asked
    expect((await apiRead(a, id)).waiting).toBeNull(); // processing at Efí is not a problem to show
    expect(await balanceOf(a)).toMatchObject({ reserved: 5_000 });

    local.psp.efi.settle(idEnvio, "REALIZADO");
    await advanceDueCashOuts({ now: at(5 * 60 * MIN + 15 * MIN) });
    expect(await rowOf(id)).toMatchObject({ status: "completed" });
    expect(await eventStatuses(id)).toEqual(["pending", "processing", "completed"]);
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 14_802, waitingFunds: 0, reserved: 0, total: 14_802 });
  });
});
