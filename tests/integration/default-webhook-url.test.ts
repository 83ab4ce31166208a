/**
 * The account's default webhook URL (dashboard, Desenvolvedores): store code of this API family that
 * never sends a postbackUrl (its gateway's dashboard holds the URL) is told of its payments. Charges
 * and cash-outs created without one take the account's default; one sent in the request wins; a
 * payment link's charges too; clearing it stops it for what is created next. Real deliveries to a
 * local receiver, through the real dispatcher.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { cashOut, paidPix } from "../helpers/money";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { cashOuts, transactions, webhookEvents } from "@/lib/db/schema";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { systemContext } from "@/lib/services/context";
import { updateDefaultWebhookUrl } from "@/lib/services/accounts/default-webhook-url";
import { ServiceError } from "@/lib/services/errors";
import { startDispatcher } from "@/lib/webhooks/dispatcher";

let a: CreatedAccount;
let r: Receiver;
beforeAll(async () => {
  a = await createTestAccount("Loja Webhook Padrão");
  r = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await r.close();
});

async function setDefault(url: string) {
  const account = await findAccountById(a.companyId);
  return updateDefaultWebhookUrl(systemContext(account!), url);
}

const eventsOf = async (transactionId: number) => getDb().select().from(webhookEvents).where(eq(webhookEvents.transactionId, transactionId));

describe("the account's default webhook URL", () => {
  it("refuses what is not an absolute http(s) URL, in the form's words, and keeps the last one", async () => {
    await setDefault(`${r.url}/padrao`);
    for (const bad of ["sualoja.com.br/webhook", "ftp://sualoja.com.br/x", "javascript:alert(1)"]) {
      const err = await setDefault(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).errors?.[0]).toMatchObject({ field: "webhookUrl", message: expect.stringMatching(/^Use um endereço completo/) });
    }
    expect((await findAccountById(a.companyId))!.webhookUrl).toBe(`${r.url}/padrao`);
  });

  it("receives the notifications of a charge created without a postbackUrl, and the charge shows it", async () => {
    await setDefault(`${r.url}/padrao`);
    const res = await call("POST", "/v1/transactions", { auth: a.secretKey, body: pixCharge(null) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.postbackUrl).toBe(`${r.url}/padrao`);
    const paid = await call("PUT", `/api/v1/transactions/${res.body.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
    expect(paid.status, paid.text).toBe(200);
    const d = startDispatcher({ scheduleMs: [0], pollMs: 20, timeoutMs: 2000 });
    try {
      await r.waitFor(() => r.hits.some((h) => h.json?.data?.id === res.body.id && h.json?.data?.status === "paid"), 10_000, "the paid postback");
    } finally {
      await d.stop();
    }
    expect((await eventsOf(res.body.id)).every((e) => e.url === `${r.url}/padrao`)).toBe(true);
  });

  it("a postbackUrl sent with the request wins", async () => {
    await setDefault(`${r.url}/padrao`);
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: pixCharge(`${r.url}/propria`) });
    expect(res.body.data.postbackUrl).toBe(`${r.url}/propria`);
    expect((await eventsOf(res.body.data.id)).map((e) => e.url)).toEqual([`${r.url}/propria`]);
  });

  it("applies to cash-outs and to a payment link's charges", async () => {
    await setDefault(`${r.url}/padrao`);
    await paidPix(a, 10_000);
    const made = await cashOut(a, { amount: 1_000, pixKey: "financeiro@example.com" });
    expect(made.status, made.text).toBe(201);
    const own = await cashOut(a, { amount: 1_000, pixKey: "financeiro@example.com", postbackUrl: `${r.url}/saques` });
    expect(own.status, own.text).toBe(201);
    const urlOf = async (id: number) => (await getDb().select({ url: cashOuts.postbackUrl }).from(cashOuts).where(eq(cashOuts.id, id)))[0].url;
    expect(await urlOf(made.body.data.id)).toBe(`${r.url}/padrao`);
    expect(await urlOf(own.body.data.id)).toBe(`${r.url}/saques`);

    const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 5000, methods: ["pix"] } });
    expect(link.status, link.text).toBe(201);
    const charge = await call("POST", `/checkout/${link.body.data.secureId}/pay`, {
      body: { method: "pix", payer: { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" } },
      headers: { "content-type": "application/json" },
    });
    expect(charge.status, charge.text).toBe(201);
    const [t] = await getDb().select().from(transactions).where(eq(transactions.secureId, charge.body.data.secureId));
    expect(t.postbackUrl).toBe(`${r.url}/padrao`);
  });

  it("cleared, what is created next has no URL (its events are kept, not sent)", async () => {
    await setDefault(`${r.url}/padrao`);
    expect(await setDefault("  ")).toBeNull();
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: pixCharge(null) });
    expect(res.body.data.postbackUrl ?? null).toBeNull();
    expect((await eventsOf(res.body.data.id)).map((e) => e.deliveryState)).toEqual(["skipped"]);
  });
});
