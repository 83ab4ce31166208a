/**
 * A call to the merchant's PSP (API Pix) that creates something there is made with no database
 * transaction open: not the Idempotency-Key's, not a payment link's lock, not the charge's own. An
 * HTTPS call inside a transaction holds its locks for as long as the PSP takes (up to the client's
 * time limit), and on the embedded database every other request waits for it.
 *
 * Each test makes the PSP hold the request (the local PSP reads it and does not answer), and while it
 * is held, takes the rows the request would lock, from another connection, with a lock timeout. On
 * the embedded database that transaction could not even start while another one is open, so it
 * finishing while the PSP still holds the request is the proof there. On PostgreSQL, no session is
 * left idle in a transaction meanwhile.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/app";
import { pspConfiguredAccount } from "../helpers/psp-accounts";
import { pixBody } from "../helpers/flows";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { databaseKind, getDb } from "@/lib/db/client";
import { checkouts, companies, pspCharges, transactions } from "@/lib/db/schema";
import { closeApiPixClients } from "@/lib/processors/api-pix/config";
import { systemContext } from "@/lib/services/context";
import { createTransaction } from "@/lib/services/transactions/create-transaction";

const KEY = "cobrancas@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  const { getEnv } = await import("@/lib/env");
  (getEnv() as { baseUrl: string }).baseUrl = "http://127.0.0.1:9";
});

afterEach(() => {
  expect(psp.internalErrors).toEqual([]);
});

afterAll(async () => {
  closeApiPixClients();
  await psp?.close();
});

const configuredAccount = (name: string) => pspConfiguredAccount(name, psp, pki, KEY);

const pixOf = (amount: number) => pixBody({ amount, items: [{ title: "Livro", unitPrice: amount, quantity: 1, tangible: true }] });
const cobPuts = () => psp.requests.filter((r) => r.method === "PUT" && r.path.includes("/cob/")).length;

/**
 * With the PSP holding the one request `send` makes to PUT /cob: the rows named by `lock` are taken
 * from another connection, and the PSP still holds the request when that is done. Then the PSP cuts
 * it off, and the request's answer is returned.
 */
async function whileThePspHoldsTheCob(send: () => Promise<{ status: number; text: string; body: any }>, lock: (tx: any) => Promise<unknown>) {
  const before = cobPuts();
  psp.hangNext(1, "api");
  const pending = send();
  await vi.waitFor(() => expect(cobPuts()).toBe(before + 1), { timeout: 30_000, interval: 20 });
  await getDb().transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '2s'`);
    await lock(tx);
  });
  // Let the local PSP see any connection its client closed meanwhile (I/O is read between macrotasks).
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  const heldMeanwhile = psp.hungRequests();
  expect(heldMeanwhile).toBe(1);
  if (databaseKind() === "postgres") {
    const [{ n }] = (await getDb().execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    )) as unknown as { n: number }[];
    expect(n).toBe(0);
  }
  psp.releaseHung();
  return pending;
}

describe("a PIX charge at the merchant's PSP", () => {
  for (const keyed of [true, false]) {
    it(`is made before any transaction opens (${keyed ? "with" : "without"} an Idempotency-Key)`, async () => {
      const acc = await configuredAccount(`Loja cob ${keyed ? "com" : "sem"} chave`);
      const headers: Record<string, string> = keyed ? { "idempotency-key": `cob-${acc.companyId}` } : {};
      const r = await whileThePspHoldsTheCob(
        () => call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixOf(4_200), headers }),
        (tx) => tx.select().from(companies).where(eq(companies.id, acc.companyId)).for("update"),
      );
      // The cut-off PUT is idempotent at the PSP (same txid): asked again, or refused as unavailable.
      expect([201, 422], r.text).toContain(r.status);
      const rows = await getDb().select().from(transactions).where(eq(transactions.companyId, acc.companyId));
      if (r.status === 201) {
        expect(rows.map((t) => t.id)).toEqual([r.body.data.id]);
        expect(rows[0]).toMatchObject({ acquirerType: "api-pix", status: "pending" });
        expect(await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, rows[0].id))).toHaveLength(1);
      } else {
        expect(rows).toEqual([]);
      }
    });
  }

  it("a retry with the key of a charge already made replays it and asks nothing of the PSP", async () => {
    const acc = await configuredAccount("Loja cob replay");
    const headers = { "idempotency-key": `replay-${acc.companyId}` };
    const body = pixOf(3_100);
    const first = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body, headers });
    expect(first.status, first.text).toBe(201);
    const puts = cobPuts();
    const again = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(cobPuts()).toBe(puts);
    // The same key with another body is refused before the PSP is asked.
    const other = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: { ...body, amount: 3_200 }, headers });
    expect(other.status).toBe(409);
    expect(cobPuts()).toBe(puts);
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, acc.companyId))).toHaveLength(1);
  });

  it("the method written in any case, with a key, is prepared too (PIX, the /v1 dialect's form)", async () => {
    const acc = await configuredAccount("Loja cob PIX maiúsculo");
    for (const [path, method] of [["/api/v1/transactions", "PIX"], ["/api/v1/transactions", " pix "], ["/v1/transactions", "PIX"]]) {
      const puts = cobPuts();
      const r = await call("POST", path, { auth: acc.secretKey, body: { ...pixOf(1_800), paymentMethod: method }, headers: { "idempotency-key": `case-${path}-${method}` } });
      expect(r.status, r.text).toBe(201);
      expect(cobPuts()).toBe(puts + 1);
    }
    expect(await getDb().select().from(pspCharges).innerJoin(transactions, eq(transactions.id, pspCharges.transactionId)).where(eq(transactions.companyId, acc.companyId))).toHaveLength(3);
  });

  it("a refusal by the PSP is not remembered with the key: the retry asks again", async () => {
    const acc = await configuredAccount("Loja cob recusada");
    const headers = { "idempotency-key": `refused-${acc.companyId}` };
    const body = pixOf(2_700);
    psp.failNext(1, 400, "api");
    const refused = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body, headers });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toMatch(/PSP não criou a cobrança/);
    const retry = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("a payment link's PIX at the merchant's PSP", () => {
  async function link(secretKey: string) {
    const created = await call("POST", "/api/v1/checkouts", {
      auth: secretKey,
      body: { items: [{ title: "Curso", unitPrice: 9_900, quantity: 1 }], methods: ["pix"] },
    });
    expect(created.status, created.text).toBe(201);
    return created.body.data as { id: number; secureId: string };
  }
  const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
  // Payer i (another e-mail for each); `attempt`: the page's attempt key (a repeat from one tab is its PIX again).
  const pay = (secureId: string, i = 0, attempt?: string) =>
    call("POST", `/checkout/${secureId}/pay`, {
      body: { method: "pix", payer: { ...payer, email: `maria${i}@example.com` }, attempt },
      headers: { "content-type": "application/json" },
    });

  it("is made before the link's lock is taken", async () => {
    const acc = await configuredAccount("Loja link cob");
    const l = await link(acc.secretKey);
    const r = await whileThePspHoldsTheCob(
      () => pay(l.secureId),
      (tx) => tx.select().from(checkouts).where(eq(checkouts.id, l.id)).for("update"),
    );
    expect([201, 422], r.text).toContain(r.status);
    const charges = await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id));
    expect(charges).toHaveLength(r.status === 201 ? 1 : 0);
  });

  it("payers asking at once cannot make more charges at the PSP than a link may take", async () => {
    const acc = await configuredAccount("Loja link corrida");
    const l = await link(acc.secretKey);
    const puts = cobPuts();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => pay(l.secureId, i)));
    const made = cobPuts() - puts;
    expect(made).toBeLessThanOrEqual(20);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(made);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expect(r.status, r.text).toBe(422);
      expect(r.body.message).toMatch(/Too many payment attempts/);
    }
    expect(await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id))).toHaveLength(made);
  });

  it("the same page asking again is given the PIX already made, and the PSP is not asked for another", async () => {
    const acc = await configuredAccount("Loja link repetida");
    const l = await link(acc.secretKey);
    const puts = cobPuts();
    const tab = "aba-da-maria-0123456789abcdef";
    const first = await pay(l.secureId, 0, tab);
    expect(first.status, first.text).toBe(201);
    const again = await pay(l.secureId, 0, tab);
    expect(again.body.data.secureId).toBe(first.body.data.secureId);
    expect(cobPuts() - puts).toBe(1);
  });

  it("a link that may take no more charges asks nothing of the PSP", async () => {
    const acc = await configuredAccount("Loja link paga");
    const l = await link(acc.secretKey);
    const first = await pay(l.secureId);
    expect(first.status, first.text).toBe(201);
    const [charge] = await getDb().select().from(transactions).where(eq(transactions.checkoutId, l.id));
    await getDb().update(transactions).set({ status: "paid", paidAt: new Date() }).where(and(eq(transactions.id, charge.id), like(transactions.acquirerType, "api-pix")));
    const puts = cobPuts();
    const second = await pay(l.secureId);
    expect(second.status).toBe(409);
    expect(cobPuts()).toBe(puts);
  });
});

describe("a caller holding a transaction that did not prepare the PSP's charge", () => {
  it("is refused (409, nothing charged) instead of calling the PSP inside its transaction", async () => {
    const acc = await configuredAccount("Loja cob sem preparo");
    const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    const puts = cobPuts();
    // As a payment link whose account moved to its PSP between the look before its lock and the lock.
    const attempt = getDb().transaction((tx) => createTransaction(systemContext(row), pixOf(1_500), {}, tx));
    await expect(attempt).rejects.toMatchObject({ code: "conflict" });
    expect(cobPuts()).toBe(puts);
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, acc.companyId))).toEqual([]);
  });
});
