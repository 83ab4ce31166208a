/**
 * A PSP that answers as real ones do, not as the spec's examples (the local PSP's `quirks`): null for
 * what it leaves out, `txId` for `txid` (Santander), no `expires_in` in the token's answer,
 * `calendario.expiracao` as a string or not at all, sparse pagination; and a PSP that refuses an
 * http:// webhook URL (Efí), with Arara's settings not sending one when it cannot be right.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixBody } from "../helpers/flows";
import { localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, companies, pspCharges, transactions, transactionStatusChanges } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import { ApiPixClient, ApiPixError, buildCobRequest, cobExpiresAt, generateTxid, type ApiPixClientConfig } from "@/lib/processors/api-pix";
import { closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { registerWebhook, savePspSettings, webhookUrlProblem } from "@/lib/services/psp/api-pix-settings";
import { systemContext } from "@/lib/services/context";

const KEY = "pagamentos@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;
let proxy: http.Server;
const clients: ApiPixClient[] = [];

/** The reverse proxy in front of Arara: the PSP's POST handed to the real route handler. */
async function startProxy(): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const r = await call(req.method ?? "POST", req.url ?? "/", { rawBody: Buffer.concat(chunks).toString("utf8"), headers: { "content-type": "application/json" } });
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(r.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
  const p = await startProxy();
  proxy = p.server;
  (getEnv() as { baseUrl: string }).baseUrl = p.url;
});

afterEach(() => {
  psp.setQuirks({});
  psp.setOmitCopiaECola(false);
  psp.setAnswerRewrite(null);
  (getEnv() as { webhookAllowPrivateUrls: boolean }).webhookAllowPrivateUrls = true;
  expect(psp.internalErrors).toEqual([]);
});

afterAll(async () => {
  for (const c of clients) c.close();
  closeApiPixClients();
  await psp?.close();
  await new Promise((r) => proxy?.close(r));
});

function clientFor(target: ApiPixPsp = psp, over: Partial<ApiPixClientConfig> = {}): ApiPixClient {
  const c = new ApiPixClient({
    baseUrl: target.baseUrl,
    tokenUrl: target.tokenUrl,
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    certificate: { certPem: target.pki.client.certPem, keyPem: target.pki.client.keyPem },
    caPem: target.pki.ca.certPem,
    timeoutMs: 5_000,
    ...over,
  });
  clients.push(c);
  return c;
}

async function configuredAccount(name: string) {
  const acc = await createTestAccount(name);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
  const saved = await savePspSettings(systemContext(row), localPspSettings(psp, pki, KEY));
  expect(saved.webhook).toEqual({ registered: true });
  return { ...acc, row };
}

const chargeOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0];
const statusOf = async (id: number) => (await getDb().select({ s: transactions.status }).from(transactions).where(eq(transactions.id, id)))[0].s;

describe("M1: null for what a PSP leaves out", () => {
  it("a cob answered with \"pixCopiaECola\": null (and other nulls) is created; the BR Code is built from its location", async () => {
    psp.setQuirks({ nullOptionals: true });
    psp.setOmitCopiaECola(true);
    const sent: unknown[] = [];
    psp.setAnswerRewrite((_m, _p, body) => {
      sent.push(body);
      return body;
    });
    const client = clientFor();
    const txid = generateTxid();
    const cob = await client.createCob(txid, buildCobRequest({ amount: 1_000, chave: KEY, expiracao: 3600 }));
    expect(cob.pixCopiaECola).toBeUndefined();
    expect(cob.location).toBe(psp.cobs.get(txid)!.loc.location);
    // What the PSP sent really had the nulls.
    expect(sent.at(-1)).toMatchObject({ txid, pixCopiaECola: null, devedor: null, solicitacaoPagador: null });
  });

  it("a Pix with \"txid\": null (received on the key, no charge) is read by GET /pix/{e2eid} and kept in GET /pix", async () => {
    psp.setQuirks({ nullOptionals: true });
    const client = clientFor();
    const received = psp.receive({ amount: 4_321 });
    const pix = await client.getPix(received.endToEndId);
    expect(pix).toMatchObject({ endToEndId: received.endToEndId, valor: "43.21" });
    expect(pix.txid).toBeUndefined();
    const list = await client.listAllPix({ inicio: new Date(Date.now() - 60_000), fim: new Date(Date.now() + 60_000), txIdPresente: false });
    expect(list.map((p) => p.endToEndId)).toContain(received.endToEndId);
  });

  it("through the product: a PIX charge is made, paid, notified and confirmed", async () => {
    const acc = await configuredAccount("Loja nulls");
    psp.setQuirks({ nullOptionals: true });
    psp.setOmitCopiaECola(true);
    const r = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ amount: 1_990, items: [{ title: "Livro", unitPrice: 1_990, quantity: 1, tangible: false }] }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.pix.qrcode).toMatch(/^000201/);
    const charge = await chargeOf(r.body.data.id);
    await psp.pay(charge.txid, { notify: "deliver" });
    expect(psp.deliveries.at(-1)?.status).toBe(200);
    expect(await statusOf(r.body.data.id)).toBe("paid");
  });
});

describe("M2: calendario.expiracao", () => {
  it("as a string of digits, the spec's own example: the charge's expiry counts it", async () => {
    psp.setQuirks({ expiracaoAsString: true });
    const txid = generateTxid();
    const cob = await clientFor().createCob(txid, buildCobRequest({ amount: 500, chave: KEY, expiracao: 3600 }));
    expect(cob.calendario.expiracao).toBe(3600);
    expect(cobExpiresAt(cob).getTime() - Date.parse(cob.calendario.criacao)).toBe(3_600_000);
    expect((await clientFor().getCob(txid)).calendario.expiracao).toBe(3600);
  });

  it("left out of the answer: the charge expires when asked (what the PSP was told), not at the spec's default", async () => {
    psp.setQuirks({ noExpiracao: true });
    const cob = await clientFor().createCob(generateTxid(), buildCobRequest({ amount: 500, chave: KEY, expiracao: 600 }));
    expect(cob.calendario.expiracao).toBe(600);
    expect(cobExpiresAt(cob).getTime() - Date.parse(cob.calendario.criacao)).toBe(600_000);
  });
});

describe("M3: a token answer without expires_in", () => {
  it("is used, for a short lifetime (300 s), then renewed", async () => {
    psp.setQuirks({ noExpiresIn: true });
    let clock = Date.now();
    const client = clientFor(psp, { now: () => clock });
    const before = psp.tokenRequests();
    await client.createCob(generateTxid(), buildCobRequest({ amount: 700, chave: KEY, expiracao: 3600 }));
    await client.getWebhook(KEY).catch((e: unknown) => expect((e as ApiPixError).code).toBe("not_found"));
    expect(psp.tokenRequests() - before).toBe(1);
    clock += 299_000;
    await client.createCob(generateTxid(), buildCobRequest({ amount: 700, chave: KEY, expiracao: 3600 }));
    expect(psp.tokenRequests() - before).toBe(2);
  });

  it("null as well (with the other nulls)", async () => {
    psp.setQuirks({ noExpiresIn: true, nullOptionals: true });
    const cob = await clientFor().createCob(generateTxid(), buildCobRequest({ amount: 700, chave: KEY, expiracao: 3600 }));
    expect(cob.status).toBe("ATIVA");
  });
});

describe("M5: txId for txid (Santander)", () => {
  it("GET /pix/{e2eid} and GET /cob read the charge's txid", async () => {
    psp.setQuirks({ txIdField: true });
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, buildCobRequest({ amount: 800, chave: KEY, expiracao: 3600 }));
    const paid = await psp.pay(txid, { notify: "drop" });
    expect((await client.getPix(paid.endToEndId)).txid).toBe(txid);
    expect((await client.getCob(txid)).pix?.[0].txid).toBe(txid);
  });

  it("through the product: the webhook's re-read finds the charge the Pix paid", async () => {
    const acc = await configuredAccount("Loja txId");
    psp.setQuirks({ txIdField: true });
    const r = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ amount: 2_500, items: [{ title: "Curso", unitPrice: 2_500, quantity: 1, tangible: false }] }) });
    expect(r.status, r.text).toBe(201);
    const charge = await chargeOf(r.body.data.id);
    await psp.pay(charge.txid, { notify: "deliver" });
    expect(psp.deliveries.at(-1)?.status).toBe(200);
    expect(await statusOf(r.body.data.id)).toBe("paid");
  });
});

describe("L3: GET /pix without quantidadeDePaginas", () => {
  it("every page is read, until one comes back short", async () => {
    const client = clientFor();
    // A window of their own, an hour ahead: no other test's Pix in it.
    const start = new Date(Date.now() + 3_600_000);
    const e2eids = [1, 2, 3, 4, 5].map((n) => psp.receive({ amount: 100 + n, at: new Date(start.getTime() + n) }).endToEndId);
    const before = psp.requests.length;
    psp.setAnswerRewrite((method, path, body) => {
      if (method !== "GET" || path !== "/pix") return body;
      const b = body as { parametros: { paginacao: Record<string, unknown> } };
      const rest = { ...b.parametros.paginacao };
      delete rest.quantidadeDePaginas;
      delete rest.quantidadeTotalDeItens;
      b.parametros.paginacao = { ...rest, itensPorPagina: String(rest.itensPorPagina) };
      return b;
    });
    const all = await client.listAllPix({ inicio: start, fim: new Date(start.getTime() + 60_000), txIdPresente: false, itensPorPagina: 2 });
    expect(all.map((p) => p.endToEndId)).toEqual(e2eids);
    // Pages 0, 1 (full) and 2 (short): three requests, not one.
    expect(psp.requests.slice(before).filter((q) => q.path.endsWith("/pix")).length).toBe(3);
  });
});

describe("L3: the reconciliation's GET /pix scan without quantidadeDePaginas", () => {
  const withoutCount = (fullPages: (b: { parametros: { inicio: string; fim: string } }) => boolean) => (method: string, path: string, body: unknown) => {
    if (method !== "GET" || path !== "/pix") return body;
    const b = body as { parametros: { inicio: string; fim: string; paginacao: Record<string, unknown> }; pix: unknown[] };
    const rest = { ...b.parametros.paginacao };
    delete rest.quantidadeDePaginas;
    delete rest.quantidadeTotalDeItens;
    b.parametros.paginacao = rest;
    // A window this PSP says is full on every page: one Pix a page of one, for ever.
    if (b.pix.length > 0) last = b.pix[0];
    if (fullPages(b) && last !== undefined) {
      b.parametros.paginacao = { paginaAtual: rest.paginaAtual, itensPorPagina: 1 };
      b.pix = [last];
    }
    return b;
  };
  let last: unknown;

  it("finds the payment of a charge not yet due for its own re-read", async () => {
    const acc = await configuredAccount("Loja scan");
    const r = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ amount: 3_100, items: [{ title: "Pedido", unitPrice: 3_100, quantity: 1, tangible: false }] }) });
    expect(r.status, r.text).toBe(201);
    await psp.pay((await chargeOf(r.body.data.id)).txid, { notify: "drop" });
    psp.setAnswerRewrite(withoutCount(() => false));
    const now = new Date();
    const result = await reconcileApiPix({ now });
    expect(result.errors).toBe(0);
    expect(result.scans).toBeGreaterThan(0);
    expect(await statusOf(r.body.data.id)).toBe("paid");
    expect((await pspConfigOf(acc.companyId))!.pixScannedUntil!.getTime()).toBe(now.getTime());
  });

  it("a window whose pages keep coming full is narrowed, as one said to have too many pages", async () => {
    const acc = await configuredAccount("Loja scan cheia");
    const r = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ amount: 3_200, items: [{ title: "Pedido", unitPrice: 3_200, quantity: 1, tangible: false }] }) });
    await psp.pay((await chargeOf(r.body.data.id)).txid, { notify: "drop" });
    psp.setAnswerRewrite(withoutCount((b) => Date.parse(b.parametros.fim) - Date.parse(b.parametros.inicio) > 3_600_000));
    await getDb().update(accountPspConfigs).set({ leaseUntil: null, pixScannedUntil: null });
    const now = new Date();
    expect((await reconcileApiPix({ now })).errors).toBe(0);
    const until = (await pspConfigOf(acc.companyId))!.pixScannedUntil!;
    expect(until.getTime()).toBeLessThan(now.getTime() - 22 * 3_600_000);
    expect(until.getTime()).toBeGreaterThan(now.getTime() - 24 * 3_600_000);
  });
});

describe("L7: CobrancaStatus spelt as in release 2.1.x", () => {
  it("REMOVIDO_PELO_USUARIO_RECEBEDOR is a removed charge: no longer followed, the timeline says so", async () => {
    const acc = await configuredAccount("Loja 2.1");
    const r = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: pixBody({ amount: 1_500, items: [{ title: "Pedido", unitPrice: 1_500, quantity: 1, tangible: false }] }) });
    expect(r.status, r.text).toBe(201);
    await getDb().update(pspCharges).set({ nextCheckAt: new Date(0) }).where(eq(pspCharges.transactionId, r.body.data.id));
    psp.setAnswerRewrite((_m, path, body) => (path.startsWith("/cob/") ? { ...(body as object), status: "REMOVIDO_PELO_USUARIO_RECEBEDOR" } : body));
    expect((await reconcileApiPix({ now: new Date() })).errors).toBe(0);
    expect((await chargeOf(r.body.data.id)).status).toBe("expired");
    const causes = (await getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, r.body.data.id))).map((c) => c.cause);
    expect(causes).toContain("psp_charge_removed");
  });
});

describe("M6: the webhook URL registered at the PSP is https", () => {
  it("the local PSP refuses an http:// URL unless told to allow it, as real PSPs do", async () => {
    const strict = await startApiPixPsp({ pki, keys: [KEY] });
    try {
      const client = clientFor(strict);
      const e = await client.putWebhook(KEY, "http://loja.example/api/v1/psp/api-pix/abc").catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiPixError);
      expect((e as ApiPixError).problem?.type).toBe("https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida");
      expect(strict.webhooks.size).toBe(0);
      await client.putWebhook(KEY, "https://loja.example/api/v1/psp/api-pix/abc");
      expect(strict.webhooks.get(KEY)?.webhookUrl).toBe("https://loja.example/api/v1/psp/api-pix/abc");
    } finally {
      await strict.close();
    }
  });

  it("Arara does not send an http:// URL when private URLs are not allowed (production), and says why", async () => {
    const acc = await configuredAccount("Loja http");
    const row = (await pspConfigOf(acc.companyId))!;
    const env = getEnv() as { webhookAllowPrivateUrls: boolean; baseUrl: string };
    expect(env.baseUrl).toMatch(/^http:\/\//);
    env.webhookAllowPrivateUrls = false;
    const puts = psp.requests.filter((q) => q.method === "PUT" && q.path.includes("/webhook/")).length;
    const outcome = await registerWebhook(row, new Date());
    expect(outcome).toEqual({ registered: false, message: expect.stringMatching(/BASE_URL.*https:\/\//s) });
    expect(psp.requests.filter((q) => q.method === "PUT" && q.path.includes("/webhook/")).length).toBe(puts);
    // An https BASE_URL is fine; with private URLs allowed (development, tests) http is let through.
    expect(webhookUrlProblem("https://arara.loja.example/api/v1/psp/api-pix/x")).toBeNull();
    env.webhookAllowPrivateUrls = true;
    expect(webhookUrlProblem("http://127.0.0.1:3000/api/v1/psp/api-pix/x")).toBeNull();
    expect(await registerWebhook(row, new Date())).toEqual({ registered: true });
  });
});
