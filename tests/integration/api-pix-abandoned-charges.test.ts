/**
 * A payment link's PIX charge at the merchant's PSP that Arara no longer takes (another charge paid the
 * link: the payer's page serves its code no more) is removed at the PSP by the reconciliation:
 * `PATCH /cob/{txid}` `{ "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR" }` (lib/services/psp/api-pix-abandon.ts),
 * so a payer who copied the code cannot pay it. Against the local PSP (real mutual TLS), which validates
 * the PATCH as the spec does:
 *
 * - removed once, followed no more (`psp_charge_removed`), nothing booked; a plain API charge is left alone;
 * - paid at the PSP before the removal (the PSP refuses it: not ATIVA): the money is booked as any Pix
 *   for a link already paid (paid, flagged as the duplicate, its devolução asked), never lost;
 * - a PSP failing the PATCH (503): the charge is read as usual, and the next look removes it;
 * - a PSP refusing the PATCH otherwise (a 422) while the payer had paid: the read books the money at once.
 */
import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { pixBody } from "../helpers/flows";
import { localPspForFile, pspConfiguredAccount } from "../helpers/psp-accounts";
import { getDb } from "@/lib/db/client";
import { pspCharges, pspRefunds, transactions, transactionStatusChanges } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";

const KEY = "links@loja.example";
const local = localPspForFile([KEY]);

afterEach(async () => {
  expect((await checkLedger(getDb())).violations).toEqual([]);
});

let minutes = 0;
/** A clock that only moves forward across the file (each charge is due at every run). */
const later = (step = 20) => new Date(Date.now() + (minutes += step) * 60_000);
const chargeOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0];
const txRow = async (id: number) => (await getDb().select().from(transactions).where(eq(transactions.id, id)))[0];
const causesOf = async (id: number) =>
  (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id)).orderBy(asc(transactionStatusChanges.id))).map((c) => c.cause);
const patchesOf = (txid: string) => local.psp.patches.filter((p) => p.txid === txid);

/** A link of one PIX-only item, two payers asking for its PIX (two cobs), the first one paid and booked. */
async function linkPaidByItsFirstPix(name: string) {
  const acc = await pspConfiguredAccount(name, local.psp, local.pki, KEY);
  const created = await call("POST", "/api/v1/checkouts", {
    auth: acc.secretKey,
    body: { items: [{ title: "Curso", unitPrice: 9_000, quantity: 1 }], methods: ["pix"], postbackUrl: "http://127.0.0.1:9/link-hook" },
  });
  expect(created.status, created.text).toBe(201);
  const link = created.body.data as { id: number; secureId: string };
  const ids: number[] = [];
  for (const email of ["ana@example.com", "bia@example.com"]) {
    const r = await call("POST", `/checkout/${link.secureId}/pay`, {
      body: { method: "pix", payer: { name: "Ana Souza", email, document: "111.444.777-35" } },
      headers: { "content-type": "application/json" },
    });
    expect(r.status, r.text).toBe(201);
    const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, r.body.data.secureId));
    ids.push(row.id);
  }
  const [first, second] = ids;
  await local.psp.pay((await chargeOf(first)).txid, { notify: "drop" });
  await reconcileApiPix({ now: later() });
  expect((await txRow(first)).status).toBe("paid");
  return { acc, link, first, second, txid: (await chargeOf(second)).txid };
}

describe("a payment link's PIX charge the link no longer takes", () => {
  it("is removed at the PSP (PATCH per the spec) once, then followed no more; nothing is booked; other charges are left alone", async () => {
    const { acc, second, txid } = await linkPaidByItsFirstPix("Loja link removida");
    const plain = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody() });
    expect(plain.status, plain.text).toBe(201);
    const plainTxid = (await chargeOf(plain.body.data.id)).txid;

    const r = await reconcileApiPix({ now: later() });
    expect(r.errors).toBe(0);
    expect(patchesOf(txid).map((p) => JSON.parse(p.body))).toEqual([{ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" }]);
    expect(local.psp.cobs.get(txid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
    await expect(local.psp.pay(txid)).rejects.toThrow(/removed/); // no payer's bank would pay it now
    expect((await chargeOf(second)).status).toBe("expired");
    expect(await causesOf(second)).toContain("psp_charge_removed");
    expect(await txRow(second)).toMatchObject({ status: "pending", paidAt: null });
    // The plain API charge is payable until its own expiry: not touched.
    expect(patchesOf(plainTxid)).toEqual([]);
    expect(local.psp.cobs.get(plainTxid)!.status).toBe("ATIVA");

    // ... and still payable there.
    await local.psp.pay(plainTxid, { notify: "drop" });
    await reconcileApiPix({ now: later() });
    expect(patchesOf(txid)).toHaveLength(1); // idempotent: a removed charge is not asked again
    expect((await txRow(plain.body.data.id)).status).toBe("paid");
  });

  it("paid at the PSP before the removal: the PSP refuses it (not ATIVA) and the money is booked as a link's duplicate, its devolução asked", async () => {
    const { first, second, txid } = await linkPaidByItsFirstPix("Loja link corrida");
    const pix = await local.psp.pay(txid, { notify: "drop" }); // the payer had copied the code

    const r = await reconcileApiPix({ now: later() });
    expect(r.errors).toBe(0);
    expect(patchesOf(txid)).toHaveLength(1);
    expect(local.psp.cobs.get(txid)!.status).toBe("CONCLUIDA");
    const dup = await txRow(second);
    expect(dup).toMatchObject({ status: "paid", duplicateOfId: first, pixEnd2end: pix.endToEndId });
    const [devolucao] = await getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, second));
    expect(devolucao).toMatchObject({ amount: 9_000, e2eid: pix.endToEndId, initiatedBy: "merchant" });
    expect(await causesOf(second)).not.toContain("psp_charge_removed");
  });

  it("a PSP failing the removal (503): the charge is read as usual, and the next look removes it", async () => {
    const { second, txid } = await linkPaidByItsFirstPix("Loja link PSP fora");
    local.psp.failNext(1, 503, "api");
    const r = await reconcileApiPix({ now: later() });
    expect(r.errors).toBe(0);
    expect(local.psp.requests.filter((q) => q.method === "PATCH" && q.path.endsWith(`/cob/${txid}`)).map((q) => q.status)).toEqual([503]);
    // Read all the same (GET /cob after the failed PATCH): still ATIVA, still pending.
    expect(local.psp.requests.filter((q) => q.method === "GET" && q.path.endsWith(`/cob/${txid}`)).length).toBeGreaterThanOrEqual(1);
    expect(local.psp.cobs.get(txid)!.status).toBe("ATIVA");
    expect((await chargeOf(second)).status).toBe("pending");

    await reconcileApiPix({ now: later(61) });
    expect(local.psp.cobs.get(txid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
    expect((await chargeOf(second)).status).toBe("expired");
    expect(patchesOf(txid).length).toBeGreaterThanOrEqual(1);
  });

  it("a PSP refusing the removal otherwise (422) after the payer paid: the same look reads the charge and books the money", async () => {
    const { first, second, txid } = await linkPaidByItsFirstPix("Loja link PSP 422");
    const pix = await local.psp.pay(txid, { notify: "drop" });
    local.psp.failNext(1, 422, "api");
    await reconcileApiPix({ now: later() });
    expect(local.psp.requests.filter((q) => q.method === "PATCH" && q.path.endsWith(`/cob/${txid}`)).map((q) => q.status)).toEqual([422]);
    expect(await txRow(second)).toMatchObject({ status: "paid", duplicateOfId: first, pixEnd2end: pix.endToEndId });
  });
});
