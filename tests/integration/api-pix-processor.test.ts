/**
 * The API Pix processor wired into the product, against the local PSP (tests/helpers/api-pix-psp,
 * real mutual TLS): an account configured for it makes its PIX charges at the PSP, the PSP's
 * webhook (through a stand-in of the reverse proxy that terminates mTLS, forwarding to the real
 * route handler) only wakes a re-read, the reconciliation finds what was never notified, and
 * refunds go to the PSP. Secrets never reach the logs or the database in clear.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixBody } from "../helpers/flows";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { dynamicBrCode, localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { parseBrCode } from "@/lib/domain/pix/brcode";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, companies, pspCharges, pspRefunds, transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { createLogger, setLogger } from "@/lib/logger";
import { closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { reconcileApiPix } from "@/lib/services/psp/api-pix-reconcile";
import { savePspSettings, testPspConnection } from "@/lib/services/psp/api-pix-settings";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { systemContext, type Account } from "@/lib/services/context";
import { startDispatcher, type Dispatcher } from "@/lib/webhooks/dispatcher";

let pki: TestPki;
let psp: ApiPixPsp;
let proxy: http.Server;
let receiver: Receiver;
let dispatcher: Dispatcher;
const logLines: string[] = [];
const wrongSecrets: string[] = [];

/** The reverse proxy in front of Arara: takes the PSP's POST and hands it to the real route handler. */
async function startProxy(): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const r = await call(req.method ?? "POST", req.url ?? "/", {
          rawBody: Buffer.concat(chunks).toString("utf8"),
          headers: { "content-type": String(req.headers["content-type"] ?? "application/json") },
        });
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(r.text);
      } catch (e) {
        res.writeHead(599);
        res.end(String(e));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  setLogger(
    createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    }),
  );
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: ["pagamentos@loja.example"], allowHttpWebhook: true });
  const p = await startProxy();
  proxy = p.server;
  // webhookUrlFor() reads BASE_URL: the proxy is the app's public address for the PSP.
  process.env.BASE_URL = p.url;
  const { getEnv } = await import("@/lib/env");
  (getEnv() as { baseUrl: string }).baseUrl = p.url;
  receiver = await startReceiver();
  dispatcher = startDispatcher({ scheduleMs: [0, 100, 100], timeoutMs: 2000, pollMs: 40 });
});

afterEach(() => {
  expect(psp.internalErrors).toEqual([]);
});

afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  closeApiPixClients();
  await psp?.close();
  await new Promise((r) => proxy?.close(r));
  setLogger(null);
});

async function accountRow(id: number): Promise<Account> {
  const [a] = await getDb().select().from(companies).where(eq(companies.id, id));
  return a;
}

const enc = (s: string) => new TextEncoder().encode(s);

async function configuredAccount(over: Partial<Parameters<typeof savePspSettings>[1]> = {}): Promise<CreatedAccount & { row: Account }> {
  const acc = await createTestAccount("Loja PSP");
  const row = await accountRow(acc.companyId);
  const result = await savePspSettings(systemContext(row), {
    ...localPspSettings(psp, pki, "pagamentos@loja.example"),
    ...over,
  });
  expect(result.webhook).toEqual({ registered: true });
  return { ...acc, row };
}

async function createCharge(secretKey: string, over: Record<string, unknown> = {}) {
  const r = await call("POST", "/api/v1/transactions", { auth: secretKey, body: pixBody({ postbackUrl: `${receiver.url}/hook`, ...over }) });
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}

async function txRow(id: number) {
  const [t] = await getDb().select().from(transactions).where(eq(transactions.id, id));
  return t;
}
async function timeline(id: number) {
  return getDb().select().from(transactionStatusChanges).where(eq(transactionStatusChanges.transactionId, id)).orderBy(transactionStatusChanges.id);
}
const txidOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0].txid;

describe("charge at the PSP", () => {
  it("charge → PSP payment → webhook → re-read → paid with the PSP's e2e id → merchant webhook", async () => {
    const acc = await configuredAccount();
    const registered = psp.webhooks.get("pagamentos@loja.example");
    expect(registered?.webhookUrl).toMatch(/\/api\/v1\/psp\/api-pix\/[A-Za-z0-9_-]{43}$/);

    const charge = await createCharge(acc.secretKey, { amount: 2590, items: [{ title: "Livro", unitPrice: 2590, quantity: 1, tangible: true }], pix: { expiresInDays: 1 } });
    expect(charge.acquirerType).toBe("api-pix");
    expect(charge.status).toBe("pending");
    const txid = await txidOf(charge.id);
    const cob = psp.cobs.get(txid)!;
    expect(cob.request.valor.original).toBe("25.90");
    expect(cob.request.chave).toBe("pagamentos@loja.example");
    expect(cob.request.calendario.expiracao).toBe(86_400);
    expect(cob.request.devedor).toMatchObject({ nome: "Maria Silva" });
    expect(charge.pix.qrcode).toBe(cob.pixCopiaECola);

    const paid = await psp.pay(txid, { notify: "deliver" });
    expect(psp.deliveries.at(-1)!.status).toBe(200);
    expect(psp.deliveries.at(-1)!.url).toBe(`${registered!.webhookUrl}/pix`);
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect(t.pixEnd2end).toBe(paid.endToEndId);
    expect(t.paidAmount).toBe(2590);
    // the re-read happened: GET /pix/{e2eid} and GET /cob/{txid} after the notification
    expect(psp.requests.some((r) => r.method === "GET" && r.path.endsWith(`/pix/${paid.endToEndId}`))).toBe(true);
    expect(psp.requests.some((r) => r.method === "GET" && r.path.endsWith(`/cob/${txid}`))).toBe(true);
    await receiver.waitFor(() => receiver.hits.some((h) => h.json?.data?.id === charge.id && h.json?.data?.status === "paid"), 10_000, "paid webhook");

    // The same notification again changes nothing.
    const again = await call("POST", new URL(`${registered!.webhookUrl}/pix`).pathname, { body: { pix: [paid] } });
    expect(again.status).toBe(200);
    expect((await timeline(charge.id)).filter((e) => e.toStatus === "paid")).toHaveLength(1);
  });

  it("a PSP that answers without pixCopiaECola: the payer gets the dynamic BR Code built from the charge's location, and can pay it", async () => {
    const acc = await configuredAccount();
    psp.setOmitCopiaECola(true);
    try {
      const charge = await createCharge(acc.secretKey);
      expect(charge.status).toBe("pending");
      const txid = await txidOf(charge.id);
      const cob = psp.cobs.get(txid)!;
      const parsed = parseBrCode(charge.pix.qrcode);
      expect(parsed.crcValid).toBe(true);
      expect(parsed.url).toBe(cob.loc.location);
      expect(parsed.key).toBeNull();
      expect(parsed.fields["01"]).toBe("12");
      expect(parsed.amount).toBeUndefined();
      // Byte for byte what the stand-in's own builder makes for that location, name and city.
      expect(charge.pix.qrcode).toBe(dynamicBrCode({ location: cob.loc.location, merchantName: acc.row.name, merchantCity: acc.row.city }));
      await psp.pay(txid, { notify: "deliver" });
      expect((await txRow(charge.id)).status).toBe("paid");
    } finally {
      psp.setOmitCopiaECola(false);
    }
  });

  it("a forged notification does not pay anything: the PSP is asked, and says nothing was paid", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const txid = await txidOf(charge.id);
    const token = (await pspConfigOf(acc.companyId))!.webhookToken;
    const fake = { pix: [{ endToEndId: "E87654321202611231200abcdefghijk", txid, valor: "10.00", horario: new Date().toISOString(), chave: "pagamentos@loja.example" }] };
    // The token is the route's credential: the request log writes the path without it.
    const from = logLines.length;
    const r = await call("POST", `/api/v1/psp/api-pix/${token}/pix`, { body: fake });
    expect(r.status).toBe(200);
    expect((await txRow(charge.id)).status).toBe("pending");
    // Unknown token: 404; the bare path is accepted too.
    expect((await call("POST", `/api/v1/psp/api-pix/${"x".repeat(43)}/pix`, { body: fake })).status).toBe(404);
    expect((await call("POST", `/api/v1/psp/api-pix/${token}`, { body: { pix: [] } })).status).toBe(200);
    const lines = logLines.slice(from).join("").split("\n").filter(Boolean);
    const paths = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request").map((l) => l.path);
    expect(paths).toEqual(["/api/v1/psp/api-pix/[redacted]/pix", "/api/v1/psp/api-pix/[redacted]/pix", "/api/v1/psp/api-pix/[redacted]"]);
    expect(lines.join("\n")).not.toContain(token);
  });

  it("notification shapes: a bare array (Inter), malformed items skipped, and a batch over the spec's 100 (the rest left to the reconciliation)", async () => {
    const acc = await configuredAccount();
    const token = (await pspConfigOf(acc.companyId))!.webhookToken;
    const post = (body: unknown) => call("POST", `/api/v1/psp/api-pix/${token}/pix`, { body });

    const a = await createCharge(acc.secretKey);
    const pa = await psp.pay(await txidOf(a.id), { notify: "drop" });
    const r1 = await post([pa]);
    expect(r1.status).toBe(200);
    expect(r1.body.data.received).toBe(1);
    expect((await txRow(a.id)).status).toBe("paid");

    const b = await createCharge(acc.secretKey);
    const pb = await psp.pay(await txidOf(b.id), { notify: "drop" });
    expect((await post({ pix: [{ endToEndId: 42 }, "x", null, { ...pb, valor: "dez reais", horario: "ontem" }] })).status).toBe(200);
    expect((await txRow(b.id)).status).toBe("paid");

    // 150 items: the real one is the last, past what is re-read before answering; its charge is marked due.
    const c = await createCharge(acc.secretKey);
    const txidC = await txidOf(c.id);
    const pc = await psp.pay(txidC, { notify: "drop" });
    const filler = Array.from({ length: 149 }, (_, i) => ({ endToEndId: `E12345678202601011200${String(i).padStart(11, "0")}` }));
    const started = Date.now();
    const r3 = await post({ pix: [...filler, { endToEndId: pc.endToEndId, txid: txidC }] });
    expect(r3.status).toBe(200);
    expect(r3.body.data.received).toBe(150);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await txRow(c.id)).status).toBe("pending");
    const [due] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, c.id));
    expect(due.nextCheckAt.getTime()).toBeLessThanOrEqual(Date.now());
    await reconcileApiPix({ now: new Date() });
    expect((await txRow(c.id)).status).toBe("paid");
    // Not a notification at all: 200, nothing read.
    expect((await post({ hello: "world" })).body.data.received).toBe(0);
  });

  it("a notification of 15 paid Pix: the 5 past what is re-read at once are booked by the job's next tick, ahead of a backlog of charges merely due", async () => {
    const acc = await configuredAccount();
    const config = (await pspConfigOf(acc.companyId))!;
    // A busy account: 50 pending charges already due by their schedule (a full batch of the job).
    const backlog = [];
    for (let i = 0; i < 50; i++) backlog.push(await createCharge(acc.secretKey));
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await getDb()
      .update(pspCharges)
      .set({ nextCheckAt: longAgo })
      .where(inArray(pspCharges.transactionId, backlog.map((b) => b.id)));
    const charges: { id: number }[] = [];
    const items = [];
    for (let i = 0; i < 15; i++) {
      const c = await createCharge(acc.secretKey);
      const txid = await txidOf(c.id);
      charges.push(c);
      items.push({ ...(await psp.pay(txid, { notify: "drop" })), txid });
    }
    // The GET /pix scan ran a moment ago (it is due again in a minute): only the due charges can find these.
    await getDb().update(accountPspConfigs).set({ leaseUntil: new Date(Date.now() + 60_000) }).where(eq(accountPspConfigs.id, config.id));
    const r = await call("POST", `/api/v1/psp/api-pix/${config.webhookToken}/pix`, { body: { pix: items } });
    expect(r.status).toBe(200);
    expect(r.body.data.received).toBe(15);
    const statuses = async () => Promise.all(charges.map(async (c) => (await txRow(c.id)).status));
    expect((await statuses()).filter((s) => s === "paid")).toHaveLength(10);

    const tick = await reconcileApiPix({ limit: 50, now: new Date() }); // one tick of the job (lib/psp-jobs.ts)
    expect(tick.errors).toBe(0);
    expect(tick.scans).toBe(0);
    expect(await statuses()).toEqual(Array(15).fill("paid"));
  }, 120_000);

  it("the sandbox cannot move a charge made at the PSP", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const r = await call("PUT", `/api/v1/transactions/${charge.id}/test`, { auth: acc.secretKey, body: { status: "paid" } });
    expect(r.status).toBe(403);
    expect((await txRow(charge.id)).status).toBe("pending");
  });

  it("a dropped webhook: the reconciliation (GET /pix) finds the payment", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const txid = await txidOf(charge.id);
    const paid = await psp.pay(txid, { notify: "drop" });
    expect((await txRow(charge.id)).status).toBe("pending");
    const before = psp.requests.length;
    const r = await reconcileApiPix({ now: new Date() });
    expect(r.errors).toBe(0);
    expect(psp.requests.slice(before).some((x) => x.method === "GET" && x.path.endsWith("/pix"))).toBe(true);
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect(t.pixEnd2end).toBe(paid.endToEndId);
  });

  it("a PSP that strays from the spec where no money is decided: offsetless times (Brasília), a MED devolução, long texts: still paid, at the right instant", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const txid = await txidOf(charge.id);
    const paid = await psp.pay(txid, { notify: "drop" });
    const brasilia = (iso: string) => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().slice(0, 19); // no offset, no ms
    const med = { id: "MED/fraude 1", rtrId: "D1", valor: "0.01", natureza: "MED_FRAUDE", status: "EM_ANALISE", motivo: "m".repeat(300), horario: { solicitacao: "hoje" } };
    const stray = (p: Record<string, unknown>) => ({ ...p, horario: brasilia(String(p.horario)), infoPagador: "i".repeat(400), devolucoes: [med] });
    psp.setAnswerRewrite((_m, _path, body) => {
      const b = body as Record<string, unknown>;
      if (Array.isArray(b.pix)) b.pix = (b.pix as Record<string, unknown>[]).map(stray);
      if (typeof b.endToEndId === "string") return stray(b);
      if (b.calendario) (b.calendario as Record<string, unknown>).criacao = brasilia(String((b.calendario as Record<string, unknown>).criacao));
      return b;
    });
    try {
      const r = await reconcileApiPix({ now: new Date() });
      expect(r.errors).toBe(0);
    } finally {
      psp.setAnswerRewrite(null);
    }
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect(t.pixEnd2end).toBe(paid.endToEndId);
    expect(t.paidAt!.getTime()).toBe(Math.floor(Date.parse(paid.horario) / 1000) * 1000);
  });

  it("a cob status outside the spec: not paid, not final, checked again, logged once", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    await getDb().update(pspCharges).set({ nextCheckAt: new Date(0) }).where(eq(pspCharges.transactionId, charge.id));
    const from = logLines.length;
    psp.setAnswerRewrite((_m, path, body) => (path.startsWith("/cob/") ? { ...(body as object), status: "EM_ANALISE_PELO_PSP" } : body));
    try {
      const now = new Date();
      expect((await reconcileApiPix({ now })).errors).toBe(0);
      const [pc] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, charge.id));
      expect(pc.status).toBe("pending");
      expect(pc.nextCheckAt.getTime()).toBeGreaterThan(now.getTime());
      await getDb().update(pspCharges).set({ nextCheckAt: new Date(0) }).where(eq(pspCharges.transactionId, charge.id));
      expect((await reconcileApiPix({ now })).errors).toBe(0);
    } finally {
      psp.setAnswerRewrite(null);
    }
    expect(logLines.slice(from).filter((l) => l.includes("EM_ANALISE_PELO_PSP"))).toHaveLength(1);
    expect((await txRow(charge.id)).status).toBe("pending");
  });

  it("GET /pix asks 1000 a page, and a window with more pages than a scan reads is narrowed and advanced, never read again and again", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    await psp.pay(await txidOf(charge.id), { notify: "drop" });
    // A busy account: every window longer than an hour says it has 50 pages (50,000 Pix).
    psp.setAnswerRewrite((_m, path, body) => {
      const b = body as { parametros?: { inicio: string; fim: string; paginacao: { quantidadeDePaginas: number } } };
      if (path === "/pix" && b.parametros && Date.parse(b.parametros.fim) - Date.parse(b.parametros.inicio) > 3_600_000) b.parametros.paginacao.quantidadeDePaginas = 50;
      return b;
    });
    const before = psp.requests.length;
    const now = new Date();
    try {
      expect((await reconcileApiPix({ now })).errors).toBe(0);
    } finally {
      psp.setAnswerRewrite(null);
    }
    const lists = psp.requests.slice(before).filter((r) => r.method === "GET" && r.path.endsWith("/pix"));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => new URLSearchParams(r.query).get("paginacao.itensPorPagina") === "1000")).toBe(true);
    const until = (await pspConfigOf(acc.companyId))!.pixScannedUntil!;
    // The first window (24 h back) was halved until it held at most 20 pages: it ends within the hour after its start.
    expect(until.getTime()).toBeLessThan(now.getTime() - 22 * 3_600_000);
    expect(until.getTime()).toBeGreaterThan(now.getTime() - 24 * 3_600_000);
    // The next scan starts from there (with the overlap), not from 24 h back again.
    await getDb().update(accountPspConfigs).set({ leaseUntil: null }).where(eq(accountPspConfigs.companyId, acc.companyId));
    await reconcileApiPix({ now });
    expect((await pspConfigOf(acc.companyId))!.pixScannedUntil!.getTime()).toBe(now.getTime());
    expect((await txRow(charge.id)).status).toBe("paid");
  });

  it("two reconciliation runs at once: each payment is applied once", async () => {
    const acc = await configuredAccount();
    const charges = [await createCharge(acc.secretKey), await createCharge(acc.secretKey), await createCharge(acc.secretKey)];
    for (const c of charges) await psp.pay(await txidOf(c.id), { notify: "drop" });
    const later = new Date(Date.now() + 5 * 60_000);
    const [a, b] = await Promise.all([reconcileApiPix({ now: later }), reconcileApiPix({ now: later })]);
    expect(a.errors + b.errors).toBe(0);
    for (const c of charges) {
      expect((await txRow(c.id)).status).toBe("paid");
      expect((await timeline(c.id)).filter((e) => e.cause === "payment_received")).toHaveLength(1);
      const events = await getDb().select().from(webhookEvents).where(and(eq(webhookEvents.transactionId, c.id), eq(webhookEvents.status, "paid")));
      expect(events).toHaveLength(1);
    }
  });

  it("amount mismatch: not paid, recorded on the timeline with the amount received", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const txid = await txidOf(charge.id);
    await psp.pay(txid, { amount: charge.amount - 1, notify: "deliver" });
    expect((await txRow(charge.id)).status).toBe("pending");
    const tl = await timeline(charge.id);
    expect(tl.find((e) => e.cause === "psp_amount_mismatch")).toMatchObject({ amount: charge.amount - 1, toStatus: "pending" });
    // decided once: the reconciliation does not record it again
    await reconcileApiPix({ now: new Date(Date.now() + 3_600_000) });
    expect((await timeline(charge.id)).filter((e) => e.cause === "psp_amount_mismatch")).toHaveLength(1);
  });

  it("a second Pix for a paid charge is recorded as a duplicate, never a second payment", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const txid = await txidOf(charge.id);
    const first = await psp.pay(txid, { notify: "deliver" });
    await psp.pay(txid, { notify: "deliver" });
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect(t.pixEnd2end).toBe(first.endToEndId);
    expect((await timeline(charge.id)).filter((e) => e.cause === "psp_duplicate_payment")).toHaveLength(1);
  });

  it("expiry: an unpaid charge stops being polled; a late settlement is paid and says it came late", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey, { pix: { expiresInDays: 1 } });
    const txid = await txidOf(charge.id);
    const later = new Date(Date.now() + 3 * 86_400_000);
    await reconcileApiPix({ now: later });
    const [pc] = await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, charge.id));
    expect(pc.status).toBe("expired");
    expect((await timeline(charge.id)).some((e) => e.cause === "psp_charge_expired")).toBe(true);
    expect((await txRow(charge.id)).status).toBe("pending");

    await psp.pay(txid, { at: new Date(Date.now() + 2 * 86_400_000), afterExpiry: true, notify: "deliver" });
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect((await timeline(charge.id)).some((e) => e.cause === "psp_paid_after_expiry")).toBe(true);
  });

  it("a charge the PSP no longer has (404): expired after its expiry, checked again before; other failures back off, and give up 7 days after expiry", async () => {
    const acc = await configuredAccount();
    const pcOf = async (id: number) => (await getDb().select().from(pspCharges).where(eq(pspCharges.transactionId, id)))[0];
    const due = (id: number, over: Partial<typeof pspCharges.$inferInsert> = {}) =>
      getDb().update(pspCharges).set({ nextCheckAt: new Date(0), leaseUntil: null, ...over }).where(eq(pspCharges.transactionId, id));

    // Removed at the PSP: before the expiry a warning and another look later; after it, expired.
    const gone = await createCharge(acc.secretKey, { pix: { expiresInDays: 1 } });
    psp.cobs.delete(await txidOf(gone.id));
    await due(gone.id);
    const soon = new Date();
    await reconcileApiPix({ now: soon, limit: 1 });
    expect((await pcOf(gone.id)).status).toBe("pending");
    expect((await pcOf(gone.id)).nextCheckAt.getTime()).toBeGreaterThan(soon.getTime());
    await due(gone.id);
    const afterExpiry = new Date((await pcOf(gone.id)).expiresAt.getTime() + 3_600_000);
    await reconcileApiPix({ now: afterExpiry, limit: 1 });
    expect((await pcOf(gone.id)).status).toBe("expired");
    expect((await timeline(gone.id)).filter((e) => e.cause === "psp_charge_expired")).toHaveLength(1);

    // A PSP that fails: the next look waits as long as it has been failing (here 30 min), not 2 min.
    const failing = await createCharge(acc.secretKey, { pix: { expiresInDays: 1 } });
    const now = new Date();
    await due(failing.id, { checkedAt: new Date(now.getTime() - 30 * 60_000) });
    psp.failNext(1, 503, "api");
    await reconcileApiPix({ now, limit: 1 });
    expect((await pcOf(failing.id)).status).toBe("pending");
    expect((await pcOf(failing.id)).nextCheckAt.getTime()).toBe(now.getTime() + 30 * 60_000);
    // Still failing 8 days after its expiry: no longer polled, a note on the timeline, an error log.
    await due(failing.id);
    const from = logLines.length;
    psp.failNext(1, 503, "api");
    await reconcileApiPix({ now: new Date((await pcOf(failing.id)).expiresAt.getTime() + 8 * 86_400_000), limit: 1 });
    expect((await pcOf(failing.id)).status).toBe("expired");
    expect((await timeline(failing.id)).filter((e) => e.cause === "psp_charge_unreachable")).toHaveLength(1);
    expect(logLines.slice(from).some((l) => l.includes("needs attention") && l.includes(`"transaction":${failing.id}`))).toBe(true);
  });

  it("token expiry mid-run: the next call gets a new token and goes through", async () => {
    const acc = await configuredAccount();
    const first = await createCharge(acc.secretKey);
    const tokensBefore = psp.tokenRequests();
    psp.expireTokens();
    const second = await createCharge(acc.secretKey);
    expect(second.acquirerType).toBe("api-pix");
    expect(psp.tokenRequests()).toBeGreaterThan(tokensBefore);
    await psp.pay(await txidOf(first.id), { notify: "deliver" });
    expect((await txRow(first.id)).status).toBe("paid");
  });

  it("changing the processor affects new charges only", async () => {
    const acc = await configuredAccount();
    const viaPsp = await createCharge(acc.secretKey);
    await savePspSettings(systemContext(acc.row), { processor: "sandbox" });
    const viaSandbox = await createCharge(acc.secretKey);
    expect(viaSandbox.acquirerType).toBe("sandbox");
    // the PSP's charge is still followed
    await psp.pay(await txidOf(viaPsp.id), { notify: "deliver" });
    expect((await txRow(viaPsp.id)).status).toBe("paid");
  });
});

describe("refunds through the PSP", () => {
  it("a refund is requested at the PSP and booked when the PSP says DEVOLVIDO", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    // Another sale first: a full refund gives back the fee too, so one sale's net does not cover it.
    const r0 = await call("POST", `/api/v1/transactions/${charge.id}/refund`, { auth: acc.secretKey, body: {}, headers: { "idempotency-key": `r0-${charge.id}` } });
    expect(r0.status).toBe(422); // not paid yet
    const other = await createCharge(acc.secretKey);
    await psp.pay(await txidOf(other.id), { notify: "deliver" });
    const paid = await psp.pay(await txidOf(charge.id), { notify: "deliver" });
    const r = await call("POST", `/api/v1/transactions/${charge.id}/refund`, { auth: acc.secretKey, body: {}, headers: { "idempotency-key": `r-${charge.id}` } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.status).toBe("paid"); // not yet: the PSP is processing it
    const [refund] = await getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, charge.id));
    expect(refund.status).toBe("processing");
    expect(psp.pix.get(paid.endToEndId)!.devolucoes[0].id).toBe(refund.devolucaoId);
    // a second full refund is refused while the first is open
    const twice = await call("POST", `/api/v1/transactions/${charge.id}/refund`, { auth: acc.secretKey, body: {}, headers: { "idempotency-key": `r2-${charge.id}` } });
    expect(twice.status).toBe(422);

    psp.settleDevolucao(paid.endToEndId, refund.devolucaoId, "DEVOLVIDO");
    await psp.deliverWebhooks();
    const t = await txRow(charge.id);
    expect(t.status).toBe("refunded");
    expect(t.refundedAmount).toBe(charge.amount);
    const [done] = await getDb().select().from(pspRefunds).where(eq(pspRefunds.id, refund.id));
    expect(done.status).toBe("done");
    const events = await getDb().select().from(webhookEvents).where(and(eq(webhookEvents.transactionId, charge.id), eq(webhookEvents.status, "refunded")));
    expect(events).toHaveLength(1);
  });

  it("NAO_REALIZADO fails the refund back, with its timeline entry; found by the reconciliation", async () => {
    const acc = await configuredAccount();
    const charge = await createCharge(acc.secretKey);
    const paid = await psp.pay(await txidOf(charge.id), { notify: "deliver" });
    const r = await call("POST", `/api/v1/transactions/${charge.id}/refund`, { auth: acc.secretKey, body: { amount: 300 }, headers: { "idempotency-key": `p-${charge.id}` } });
    expect(r.status, r.text).toBe(200);
    const [refund] = await getDb().select().from(pspRefunds).where(eq(pspRefunds.transactionId, charge.id));
    psp.settleDevolucao(paid.endToEndId, refund.devolucaoId, "NAO_REALIZADO", "Conta do pagador encerrada");
    psp.dropWebhooks();
    await reconcileApiPix({ now: new Date(Date.now() + 5 * 60_000) });
    const [failed] = await getDb().select().from(pspRefunds).where(eq(pspRefunds.id, refund.id));
    expect(failed.status).toBe("failed");
    const t = await txRow(charge.id);
    expect(t.status).toBe("paid");
    expect(t.refundedAmount).toBe(0);
    expect((await timeline(charge.id)).some((e) => e.cause === "psp_refund_failed" && e.amount === 300)).toBe(true);
  });
});

describe("configuration and secrets", () => {
  it("Testar conexão: ok with the right credentials; readable errors for a wrong secret and a refused certificate", async () => {
    const acc = await configuredAccount();
    const good = await testPspConnection({ account: acc.row });
    expect(good).toMatchObject({ ok: true, webhookMatches: true });

    const wrong = "sec-wrong-" + "Z".repeat(20);
    wrongSecrets.push(wrong);
    await savePspSettings(systemContext(acc.row), {
      processor: "api-pix",
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: psp.clientId,
      clientSecret: wrong,
      pixKey: "pagamentos@loja.example",
    });
    const bad = await testPspConnection({ account: acc.row });
    expect(bad).toMatchObject({ ok: false, code: "invalid_client_credentials" });
    expect(bad.ok ? "" : bad.message).toMatch(/client/i);

    await savePspSettings(systemContext(acc.row), {
      processor: "api-pix",
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: psp.clientId,
      clientSecret: psp.clientSecret,
      certificate: enc(pki.untrustedClient.certPem),
      privateKey: enc(pki.untrustedClient.keyPem),
      pixKey: "pagamentos@loja.example",
    });
    const refused = await testPspConnection({ account: acc.row });
    expect(refused).toMatchObject({ ok: false, code: "client_certificate_refused" });
    expect(refused.ok ? "" : refused.message.length).toBeGreaterThan(10);

    // An unreachable host
    await getDb().update(accountPspConfigs).set({ tokenUrl: "https://127.0.0.1:1/oauth/token", updatedAt: new Date() }).where(eq(accountPspConfigs.companyId, acc.companyId));
    const down = await testPspConnection({ account: acc.row });
    expect(down).toMatchObject({ ok: false, code: "host_unreachable" });
  });

  it("a charge for an account whose PSP refuses the certificate is a 422 with a readable error", async () => {
    const acc = await configuredAccount({ certificate: enc(pki.untrustedClient.certPem), privateKey: enc(pki.untrustedClient.keyPem) }).catch(() => null);
    // Registration fails with that certificate, so configure it directly through the saved good one, then swap.
    const ok = acc ?? (await configuredAccount());
    await savePspSettings(systemContext(ok.row), {
      processor: "api-pix",
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: psp.clientId,
      certificate: enc(pki.untrustedClient.certPem),
      privateKey: enc(pki.untrustedClient.keyPem),
      pixKey: "pagamentos@loja.example",
    });
    const r = await call("POST", "/api/v1/transactions", { auth: ok.secretKey, body: pixBody() });
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(/certificado/i);
    expect(await getDb().select().from(transactions).where(eq(transactions.companyId, ok.companyId))).toHaveLength(0);
  });

  it("a PKCS#12 bundle with its password works as the client certificate", async () => {
    const acc = await configuredAccount({ certificate: new Uint8Array(pki.clientP12.pfx), privateKey: null, certificatePassword: pki.clientP12.passphrase });
    const [row] = await getDb().select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, acc.companyId));
    expect(row.pkcs12Enc).not.toBeNull();
    expect(row.keyPemEnc).toBeNull();
    const charge = await createCharge(acc.secretKey);
    expect(charge.acquirerType).toBe("api-pix");
  });

  it("a wrong PKCS#12 password is refused when saving, with a readable error", async () => {
    const acc = await createTestAccount("Loja P12");
    const wrong = "senha-errada-123456";
    wrongSecrets.push(wrong);
    const err = await savePspSettings(systemContext(await accountRow(acc.companyId)), {
      processor: "api-pix",
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: psp.clientId,
      clientSecret: psp.clientSecret,
      certificate: new Uint8Array(pki.clientP12.pfx),
      certificatePassword: wrong,
      pixKey: "pagamentos@loja.example",
    }).catch((e) => e);
    expect(err).toMatchObject({ code: "validation_error", errors: [{ field: "certificate" }] });
    expect(await pspConfigOf(acc.companyId)).toBeNull();
  });

  it("PSP URLs in a private network are refused unless private URLs are allowed", async () => {
    const { getEnv } = await import("@/lib/env");
    const env = getEnv() as { webhookAllowPrivateUrls: boolean };
    env.webhookAllowPrivateUrls = false;
    try {
      const acc = await createTestAccount("Loja SSRF");
      const err = await savePspSettings(systemContext(await accountRow(acc.companyId)), {
        processor: "api-pix",
        baseUrl: psp.baseUrl,
        tokenUrl: "https://10.0.0.1/oauth/token",
        clientId: psp.clientId,
        clientSecret: psp.clientSecret,
        certificate: enc(pki.client.certPem),
        privateKey: enc(pki.client.keyPem),
        pixKey: "pagamentos@loja.example",
      }).catch((e) => e);
      expect(err.code).toBe("validation_error");
      expect(err.errors.map((e: { field: string }) => e.field).sort()).toEqual(["baseUrl", "tokenUrl"]);
    } finally {
      env.webhookAllowPrivateUrls = true;
    }
  });

  it("no secret, key or token in the logs or in clear in the database", async () => {
    const p12 = Buffer.from(pki.clientP12.pfx).toString("base64");
    const secrets = [psp.clientSecret, ...wrongSecrets, ...psp.issuedTokens(), pki.clientP12.passphrase, p12.slice(0, 64), p12.slice(-64)];
    const keyLines = [pki.client.keyPem, pki.untrustedClient.keyPem].flatMap((k) => k.split(/\r?\n/).filter((l) => l.length >= 40 && !l.startsWith("-----")));
    expect(psp.issuedTokens().length).toBeGreaterThan(0);
    const logs = logLines.join("");
    expect(logs.length).toBeGreaterThan(0);
    for (const s of [...secrets, ...keyLines]) expect(logs.includes(s), "a secret in the logs").toBe(false);
    const dump = await getDb().execute(sql`select row_to_json(c)::text as j from account_psp_configs c`);
    const rows = ((dump as unknown as { rows?: { j: string }[] }).rows ?? (dump as unknown as { j: string }[])).map((r) => r.j).join("\n");
    expect(rows).toContain("client_secret_enc");
    for (const s of [...secrets, ...keyLines]) expect(rows.includes(s), "a secret in clear in the database").toBe(false);
  });
});
