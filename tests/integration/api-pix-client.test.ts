/**
 * The API Pix client against a local PSP (tests/helpers/api-pix-psp) over real mutual TLS with
 * certificates made at test time: OAuth2 token and its cache, PEM and PKCS#12 credentials, the
 * operations Arara uses, and every failure a merchant may meet, as typed errors with readable
 * messages that never carry a secret.
 */
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { inspect } from "node:util";
import pino from "pino";
import { parsePix } from "pix-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseBrCode } from "@/lib/domain/pix/brcode";
import {
  ApiPixClient,
  ApiPixError,
  buildCobRequest,
  buildDevolucaoRequest,
  cobExpiracaoSeconds,
  cobExpiresAt,
  devedorFromCustomer,
  devolucaoIdFor,
  generateTxid,
  valorToCents,
  webhookPixCallbackSchema,
  type ApiPixClientConfig,
  type ApiPixErrorCode,
} from "@/lib/processors/api-pix";
import { chargeRetryDelayMs } from "@/lib/services/psp/api-pix-reconcile";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";

let pki: TestPki;
let psp: ApiPixPsp;
const clients: ApiPixClient[] = [];
const logLines: string[] = [];
const logger = pino({ level: "debug" }, { write: (line: string) => void logLines.push(line) });
/** Every ApiPixError met in this file, searched for secrets at the end. */
const seenErrors: ApiPixError[] = [];
/** Secrets used in this file besides the PSP's own (wrong ones typed by a merchant included). */
const extraSecrets: string[] = [];

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, allowHttpWebhook: true });
});

afterEach(() => {
  expect(psp.internalErrors).toEqual([]);
});

afterAll(async () => {
  for (const c of clients) c.close();
  await psp?.close();
});

function clientFor(overrides: Partial<ApiPixClientConfig> = {}, target: ApiPixPsp = psp): ApiPixClient {
  const c = new ApiPixClient({
    baseUrl: target.baseUrl,
    tokenUrl: target.tokenUrl,
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    certificate: { certPem: target.pki.client.certPem, keyPem: target.pki.client.keyPem },
    caPem: target.pki.ca.certPem,
    timeoutMs: 5_000,
    logger,
    ...overrides,
  });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>, code: ApiPixErrorCode): Promise<ApiPixError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected an ApiPixError ${code}`).toBeInstanceOf(ApiPixError);
  const e = caught as ApiPixError;
  seenErrors.push(e);
  expect(e.code).toBe(code);
  return e;
}

function cobBody(amount: number, chave = "Pagamentos@Loja.example") {
  return buildCobRequest({
    amount,
    chave,
    expiracao: cobExpiracaoSeconds({ expiresInDays: 2 }),
    devedor: devedorFromCustomer({ name: "  João  da Silva ", document: { type: "cpf", number: "111.444.777-35" } }),
    solicitacaoPagador: "Pedido 42",
  });
}

const since = (from: number) => psp.requests.slice(from);

describe("charges (cob)", () => {
  it("creates a cob with Arara's txid, reads it back, and its pixCopiaECola is a valid dynamic BR Code", async () => {
    const client = clientFor();
    const txid = generateTxid();
    const cob = await client.createCob(txid, cobBody(15_000));

    expect(cob).toMatchObject({
      txid,
      status: "ATIVA",
      revisao: 0,
      valor: { original: "150.00" },
      chave: "pagamentos@loja.example",
      devedor: { cpf: "11144477735", nome: "João da Silva" },
      solicitacaoPagador: "Pedido 42",
      calendario: { expiracao: 2 * 86_400 },
    });
    expect(cobExpiresAt(cob).getTime() - Date.parse(cob.calendario.criacao)).toBe(2 * 86_400_000);
    // What the PSP received is what the builders made.
    expect(psp.cobs.get(txid)?.request).toEqual(cobBody(15_000));

    const ours = parseBrCode(cob.pixCopiaECola!);
    expect(ours.crcValid).toBe(true);
    expect(ours.fields["01"]).toBe("12");
    expect(ours.key).toBeNull();
    expect(ours.url).toBe(cob.location);
    expect(ours.url).toMatch(/^localhost:\d+\/qr\/v2\/[0-9a-f]{32}$/);
    // An independent implementation reads the same payload as a dynamic PIX.
    const theirs = parsePix(cob.pixCopiaECola!) as any;
    expect(theirs.error).toBeUndefined();
    expect(theirs).toMatchObject({ type: "DYNAMIC", url: cob.location });

    const read = await client.getCob(txid);
    expect(read).toMatchObject({ txid, status: "ATIVA", valor: { original: "150.00" }, pixCopiaECola: cob.pixCopiaECola });
    expect(read.pix).toBeUndefined();
  });

  it("a second PUT of the same txid and body is harmless (same revision), a changed body revises the cob", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(1_000));
    const again = await client.createCob(txid, cobBody(1_000));
    expect(again.revisao).toBe(0);
    const revised = await client.createCob(txid, cobBody(1_200));
    expect(revised).toMatchObject({ revisao: 1, valor: { original: "12.00" } });
  });

  it("an unknown txid is not_found, with the PSP's problem type", async () => {
    const e = await failure(clientFor().getCob(generateTxid()), "not_found");
    expect(e.httpStatus).toBe(404);
    expect(e.problem?.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado");
    expect(e.retryable).toBe(false);
  });

  it("the PSP's refusal comes back with its problem body and violations (a key that is not the merchant's)", async () => {
    const e = await failure(clientFor().createCob(generateTxid(), cobBody(1_000, "outra@loja.example")), "psp_rejected");
    expect(e.httpStatus).toBe(400);
    expect(e.problem?.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida");
    expect(e.problem?.violacoes?.map((v) => v.propriedade)).toEqual(["cob.chave"]);
    expect(e.message).toContain("não pertence a este usuário recebedor");
  });

  it("a request that breaks the spec is refused before anything is sent", async () => {
    const client = clientFor();
    const from = psp.requests.length;
    const e = await failure(client.createCob("short-txid", cobBody(1_000)), "invalid_request");
    expect(e.message).toContain("txid");
    await failure(client.getPix("E123"), "invalid_request");
    expect(since(from)).toEqual([]);
  });
});

describe("the local PSP validates what it receives against the spec", () => {
  async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; json: any }>((resolve, reject) => {
      const req = https.request(
        new URL(path, `https://127.0.0.1:${psp.port}`),
        { method, headers, cert: pki.client.certPem, key: pki.client.keyPem, ca: pki.ca.certPem, agent: false },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  async function token() {
    const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString("base64");
    const r = await raw("POST", "/oauth/token", "grant_type=client_credentials", {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(r.status).toBe(200);
    return r.json.access_token as string;
  }

  it("a cob with a malformed amount and a field the spec does not have gets 400 CobOperacaoInvalida with violations", async () => {
    const t = await token();
    const body = JSON.stringify({ calendario: { expiracao: 3600 }, valor: { original: "15" }, chave: psp.keys[0], desconto: "1.00" });
    const r = await raw("PUT", `/api/v2/cob/${generateTxid()}`, body, { authorization: `Bearer ${t}`, "content-type": "application/json" });
    expect(r.status).toBe(400);
    expect(r.json.type).toBe("https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida");
    const props = r.json.violacoes.map((v: any) => v.propriedade);
    expect(props).toContain("cob.valor.original");
    expect(props).toContain("cob");
  });

  it("zero expiration, both cpf and cnpj, and a hyphenated txid are violations too", async () => {
    const t = await token();
    const h = { authorization: `Bearer ${t}`, "content-type": "application/json" };
    const both = { calendario: { expiracao: 0 }, valor: { original: "1.00" }, chave: psp.keys[0], devedor: { cpf: "11144477735", cnpj: "11222333000181", nome: "X" } };
    const r1 = await raw("PUT", `/api/v2/cob/${generateTxid()}`, JSON.stringify(both), h);
    expect(r1.status).toBe(400);
    expect(r1.json.violacoes.map((v: any) => v.propriedade)).toEqual(expect.arrayContaining(["cob.calendario.expiracao", "cob.devedor"]));
    const r2 = await raw("PUT", `/api/v2/cob/abc-${generateTxid(undefined, 30)}`, JSON.stringify({ ...both, devedor: undefined, calendario: {} }), h);
    expect(r2.status).toBe(400);
    expect(r2.json.violacoes[0].propriedade).toBe("cob.txid");
  });

  it("GET /pix without fim, or with fim before inicio, is PixConsultaInvalida; an API call without a token is 401", async () => {
    const t = await token();
    const h = { authorization: `Bearer ${t}` };
    const r1 = await raw("GET", "/api/v2/pix?inicio=2026-01-02T00:00:00Z", undefined, h);
    expect(r1.status).toBe(400);
    expect(r1.json.type).toBe("https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida");
    const r2 = await raw("GET", "/api/v2/pix?inicio=2026-01-02T00:00:00Z&fim=2026-01-01T00:00:00Z", undefined, h);
    expect(r2.status).toBe(400);
    expect(r2.json.violacoes[0].propriedade).toBe("parametros.fim");
    const r3 = await raw("GET", `/api/v2/cob/${generateTxid()}`);
    expect(r3.status).toBe(401);
    const r4 = await raw("GET", "/api/v2/cob/not-a-txid", undefined, h);
    expect(r4).toMatchObject({ status: 400, json: { type: "https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida" } });
    const r5 = await raw("GET", `/api/v2/cob/${generateTxid()}?pagina=1`, undefined, h);
    expect(r5.status).toBe(400);
    const r6 = await raw("GET", "/api/v2/pix/E123", undefined, h);
    expect(r6).toMatchObject({ status: 400, json: { type: "https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida" } });
  });

  it("the token endpoint wants client_credentials in a form body", async () => {
    const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString("base64");
    const json = await raw("POST", "/oauth/token", JSON.stringify({ grant_type: "client_credentials" }), {
      authorization: `Basic ${basic}`,
      "content-type": "application/json",
    });
    expect(json).toMatchObject({ status: 400, json: { error: "invalid_request" } });
    const password = await raw("POST", "/oauth/token", "grant_type=password", {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(password).toMatchObject({ status: 400, json: { error: "unsupported_grant_type" } });
  });
});

describe("OAuth2 token", () => {
  it("one token request serves many calls, sequential and concurrent", async () => {
    const client = clientFor();
    const txid = generateTxid();
    const before = psp.tokenRequests();
    await client.createCob(txid, cobBody(500));
    for (let i = 0; i < 3; i++) await client.getCob(txid);
    await Promise.all(Array.from({ length: 10 }, () => client.getCob(txid)));
    expect(psp.tokenRequests() - before).toBe(1);
  });

  it("concurrent first calls share one token request", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await clientFor().createCob(txid, cobBody(500));
    const before = psp.tokenRequests();
    await Promise.all(Array.from({ length: 8 }, () => client.getCob(txid)));
    expect(psp.tokenRequests() - before).toBe(1);
  });

  it("a token the PSP drops mid-run: one 401, one new token, the call retried once and done", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(700));
    const from = psp.requests.length;
    psp.expireTokens();
    const read = await client.getCob(txid);
    expect(read.txid).toBe(txid);
    expect(since(from).map((r) => [r.kind, r.status])).toEqual([
      ["api", 401],
      ["token", 200],
      ["api", 200],
    ]);
    expect(logLines.some((l) => l.includes("retrying once with a new token"))).toBe(true);
  });

  it("a token close to its expiry is renewed before use, without a 401", async () => {
    psp.setTokenTtl(2);
    try {
      const client = clientFor();
      const txid = generateTxid();
      const from = psp.requests.length;
      await client.createCob(txid, cobBody(900));
      // The client renews 10% of the lifetime early (1.8 s here): past that it asks for a new token.
      await new Promise((r) => setTimeout(r, 2_050));
      await client.getCob(txid);
      expect(since(from).map((r) => [r.kind, r.status])).toEqual([
        ["token", 200],
        ["api", 201],
        ["token", 200],
        ["api", 200],
      ]);
    } finally {
      psp.setTokenTtl(3600);
    }
  });

  it("a 401 that survives a fresh token is reported as unauthorized (one retry only)", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(800));
    const from = psp.requests.length;
    psp.failNext(2, 401, "api");
    const e = await failure(client.getCob(txid), "unauthorized");
    expect(e.httpStatus).toBe(401);
    expect(since(from).map((r) => [r.kind, r.status])).toEqual([
      ["api", 401],
      ["token", 200],
      ["api", 401],
    ]);
  });

  it("a wrong client secret is invalid_client_credentials, with a message about the credentials", async () => {
    const wrong = `wrong-${generateTxid()}`;
    extraSecrets.push(wrong);
    const e = await failure(clientFor({ clientSecret: wrong }).getCob(generateTxid()), "invalid_client_credentials");
    expect(e.httpStatus).toBe(401);
    expect(e.operation).toBe("POST token");
    expect(e.message).toContain("client secret");
    expect(e.message).toContain(`127.0.0.1:${psp.port}`);
  });
});

describe("client certificates", () => {
  it("a PKCS#12 bundle with its password works like the PEM pair", async () => {
    const client = clientFor({ certificate: { pfx: pki.clientP12.pfx, passphrase: pki.clientP12.passphrase } });
    const txid = generateTxid();
    const cob = await client.createCob(txid, cobBody(2_500));
    expect(cob.valor.original).toBe("25.00");
    expect((await client.getCob(txid)).txid).toBe(txid);
  });

  it("a wrong PKCS#12 password or a key that is not the certificate's is reported before any connection", async () => {
    const from = psp.requests.length;
    const wrong = `nope-${generateTxid()}`;
    extraSecrets.push(wrong);
    for (const certificate of [
      { pfx: pki.clientP12.pfx, passphrase: wrong },
      { certPem: pki.client.certPem, keyPem: pki.untrustedClient.keyPem },
      { certPem: pki.client.certPem, keyPem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" },
    ]) {
      let caught: unknown;
      try {
        clientFor({ certificate });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ApiPixError);
      seenErrors.push(caught as ApiPixError);
      expect((caught as ApiPixError).code).toBe("client_certificate_invalid");
      expect((caught as ApiPixError).message).toContain("certificado do cliente");
    }
    expect(since(from)).toEqual([]);
  });

  it("a client certificate the PSP does not trust is refused in the handshake, with the readable certificate error", async () => {
    const from = psp.requests.length;
    const client = clientFor({ certificate: { certPem: pki.untrustedClient.certPem, keyPem: pki.untrustedClient.keyPem } });
    const e = await failure(client.testConnection(psp.keys[0]), "client_certificate_refused");
    expect(e.message).toContain("recusou o certificado do cliente");
    expect(e.message).toContain(`127.0.0.1:${psp.port}`);
    expect(e.retryable).toBe(false);
    // Refused in TLS: no HTTP request ever reached the PSP.
    expect(since(from)).toEqual([]);
  });
});

describe("server trust and reachability", () => {
  it("a server certificate from a CA the client does not trust", async () => {
    const e = await failure(clientFor({ caPem: pki.otherCa.certPem }).getCob(generateTxid()), "server_certificate_untrusted");
    expect(e.message).toContain("não é confiável");
    // Without the PSP's CA the system's roots do not know it either.
    await failure(clientFor({ caPem: undefined }).getCob(generateTxid()), "server_certificate_untrusted");
  });

  it("a server certificate for another host name", async () => {
    const other = await startApiPixPsp({ pki: makeTestPki({ serverNames: ["psp.example.test"] }) });
    try {
      const e = await failure(clientFor({}, other).getCob(generateTxid()), "server_hostname_mismatch");
      expect(e.message).toContain("outro nome");
    } finally {
      await other.close();
    }
  });

  it("nothing listening at the port, and a host name DNS does not know", async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const refused = await failure(
      clientFor({ baseUrl: `https://127.0.0.1:${closed}/api/v2`, tokenUrl: `https://127.0.0.1:${closed}/oauth/token` }).getCob(generateTxid()),
      "host_unreachable",
    );
    expect(refused.causeCode).toBe("ECONNREFUSED");
    expect(refused.retryable).toBe(true);
    const dns = await failure(
      clientFor({ baseUrl: "https://psp.invalid/api/v2", tokenUrl: "https://psp.invalid/oauth/token" }).getCob(generateTxid()),
      "host_unreachable",
    );
    expect(dns.message).toContain("DNS");
  });
});

describe("PSP failures", () => {
  it("a 5xx is psp_unavailable, retryable, and the next call goes through", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(300));
    psp.failNext(1, 503, "api");
    const e = await failure(client.getCob(txid), "psp_unavailable");
    expect(e).toMatchObject({ httpStatus: 503, retryable: true, operation: "GET /cob/{txid}" });
    expect(e.message).toContain("503");
    expect((await client.getCob(txid)).txid).toBe(txid);
  });

  it("a 429 or 503 with Retry-After says how long the PSP asked to wait (seconds or a date, at most an hour), and the reconciliation waits at least that", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(300));
    psp.failNext(1, 429, "api", "600");
    const limited = await failure(client.getCob(txid), "psp_unavailable");
    expect(limited).toMatchObject({ httpStatus: 429, retryable: true, retryAfterMs: 600_000 });
    psp.failNext(1, 503, "api", new Date(Date.now() + 90 * 60_000).toUTCString());
    expect((await failure(client.getCob(txid), "psp_unavailable")).retryAfterMs).toBe(60 * 60_000);
    psp.failNext(1, 503, "api");
    expect((await failure(client.getCob(txid), "psp_unavailable")).retryAfterMs).toBeUndefined();
    psp.failNext(1, 503, "api", "soon");
    expect((await failure(client.getCob(txid), "psp_unavailable")).retryAfterMs).toBeUndefined();

    // A charge last read a minute ago would be looked at again in 2 minutes; the PSP asked for 10.
    const now = new Date();
    const charge = { checkedAt: new Date(now.getTime() - 60_000), createdAt: new Date(now.getTime() - 3_600_000) };
    expect(chargeRetryDelayMs(charge, now)).toBe(2 * 60_000);
    expect(chargeRetryDelayMs(charge, now, limited)).toBe(600_000);
  });

  it("a 5xx at the token endpoint is psp_unavailable too", async () => {
    psp.failNext(1, 502, "token");
    const e = await failure(clientFor().getCob(generateTxid()), "psp_unavailable");
    expect(e).toMatchObject({ httpStatus: 502, operation: "POST token" });
  });

  it("a PSP that does not answer in time is a timeout, and the next call goes through", async () => {
    const client = clientFor({ timeoutMs: 1_000 });
    const txid = generateTxid();
    await client.createCob(txid, cobBody(400));
    psp.hangNext(1, "api");
    const started = Date.now();
    const e = await failure(client.getCob(txid), "timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(e.retryable).toBe(true);
    expect(e.message).toContain("não respondeu");
    expect((await client.getCob(txid)).txid).toBe(txid);
  });
});

describe("received Pix", () => {
  it("a paid cob shows its Pix (CONCLUIDA); Pix are listed by period across pages and read by e2eid", async () => {
    const client = clientFor();
    const t0 = new Date(Date.now() + 1000);
    const txids = [generateTxid(), generateTxid(), generateTxid()];
    for (const txid of txids) await client.createCob(txid, cobBody(1_990));
    const paid = [];
    for (let i = 0; i < txids.length; i++) paid.push(await psp.pay(txids[i], { at: new Date(t0.getTime() + i * 1000), infoPagador: `pedido ${i}` }));

    const cob = await client.getCob(txids[0]);
    expect(cob.status).toBe("CONCLUIDA");
    expect(cob.pix?.map((p) => [p.endToEndId, p.valor])).toEqual([[paid[0].endToEndId, "19.90"]]);

    const period = { inicio: t0, fim: new Date(t0.getTime() + 5_000) };
    const page0 = await client.listPix({ ...period, itensPorPagina: 2 });
    expect(page0.parametros.paginacao).toMatchObject({ paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 });
    expect(page0.pix).toHaveLength(2);
    const all = await client.listAllPix({ ...period, itensPorPagina: 2 });
    expect(all.map((p) => p.endToEndId)).toEqual(paid.map((p) => p.endToEndId));
    expect(all.map((p) => p.txid)).toEqual(txids);
    expect(await client.listAllPix({ inicio: new Date(t0.getTime() - 60_000), fim: new Date(t0.getTime() - 1) })).toEqual([]);

    const one = await client.getPix(paid[1].endToEndId);
    expect(one).toMatchObject({ endToEndId: paid[1].endToEndId, txid: txids[1], valor: "19.90", infoPagador: "pedido 1" });
    expect(valorToCents(one.valor)).toBe(1_990);
  });

  it("another amount and a second payment of the same cob are both visible on the cob", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(5_000));
    await psp.pay(txid, { amount: 4_999 });
    await psp.pay(txid);
    const cob = await client.getCob(txid);
    expect(cob.status).toBe("CONCLUIDA");
    expect(cob.pix?.map((p) => p.valor)).toEqual(["49.99", "50.00"]);
  });

  it("a payment after expiry reaches the cob only when the test says so", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, buildCobRequest({ amount: 100, chave: psp.keys[1], expiracao: 60 }));
    const late = new Date(Date.now() + 120_000);
    await expect(psp.pay(txid, { at: late })).rejects.toThrow(/expired/);
    const pix = await psp.pay(txid, { at: late, afterExpiry: true });
    const cob = await client.getCob(txid);
    expect(Date.parse(pix.horario)).toBeGreaterThan(cobExpiresAt(cob).getTime());
    expect(cob.pix?.[0].endToEndId).toBe(pix.endToEndId);
  });
});

describe("refunds (devolução)", () => {
  it("is requested with Arara's id, read back until DEVOLVIDO, and shows on the Pix", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(10_000));
    const pix = await psp.pay(txid);
    const id = devolucaoIdFor(77);

    const asked = await client.requestDevolucao(pix.endToEndId, id, buildDevolucaoRequest({ amount: 2_500, descricao: "Troca do produto" }));
    expect(asked).toMatchObject({ id: "77", valor: "25.00", status: "EM_PROCESSAMENTO", natureza: "ORIGINAL", descricao: "Troca do produto" });
    expect(asked.rtrId).toMatch(/^D12345678\d{12}[a-zA-Z0-9]{11}$/);
    // Asking again with the same id and amount changes nothing.
    expect(await client.requestDevolucao(pix.endToEndId, id, buildDevolucaoRequest({ amount: 2_500, descricao: "Troca do produto" }))).toEqual(asked);

    expect((await client.getDevolucao(pix.endToEndId, id)).status).toBe("EM_PROCESSAMENTO");
    setTimeout(() => psp.settleDevolucao(pix.endToEndId, id, "DEVOLVIDO"), 150);
    let status = "EM_PROCESSAMENTO";
    let liquidacao: string | undefined;
    for (let i = 0; i < 40 && status === "EM_PROCESSAMENTO"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const d = await client.getDevolucao(pix.endToEndId, id);
      status = d.status;
      liquidacao = d.horario?.liquidacao;
    }
    expect(status).toBe("DEVOLVIDO");
    expect(liquidacao).toBeDefined();
    expect((await client.getPix(pix.endToEndId)).devolucoes?.map((d) => [d.id, d.status])).toEqual([["77", "DEVOLVIDO"]]);
  });

  it("a refund the PSP could not make is NAO_REALIZADO with its reason; asking more than was paid is refused", async () => {
    const client = clientFor();
    const txid = generateTxid();
    await client.createCob(txid, cobBody(1_000));
    const pix = await psp.pay(txid);
    await client.requestDevolucao(pix.endToEndId, "r1", buildDevolucaoRequest({ amount: 600 }));
    const over = await failure(client.requestDevolucao(pix.endToEndId, "r2", buildDevolucaoRequest({ amount: 500 })), "psp_rejected");
    expect(over.problem?.type).toBe("https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida");
    expect(over.message).toContain("excederia o valor do pix originário");
    const sameIdOtherAmount = await failure(client.requestDevolucao(pix.endToEndId, "r1", buildDevolucaoRequest({ amount: 100 })), "psp_rejected");
    expect(sameIdOtherAmount.problem?.violacoes?.[0].propriedade).toBe("devolucao.id");

    psp.settleDevolucao(pix.endToEndId, "r1", "NAO_REALIZADO", "Conta do pagador encerrada");
    expect(await client.getDevolucao(pix.endToEndId, "r1")).toMatchObject({ status: "NAO_REALIZADO", motivo: "Conta do pagador encerrada" });
    // A refund that did not happen no longer counts against the Pix's amount.
    expect((await client.requestDevolucao(pix.endToEndId, "r3", buildDevolucaoRequest({ amount: 1_000 }))).status).toBe("EM_PROCESSAMENTO");
  });
});

describe("webhook", () => {
  type Hit = { method: string; url: string; body: any };
  async function receiver() {
    const hits: Hit[] = [];
    const server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        hits.push({ method: req.method ?? "", url: req.url ?? "", body: JSON.parse(text) });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as AddressInfo).port;
    return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it("is registered and read back; testConnection reads it, or says there is none", async () => {
    const client = clientFor();
    const rx = await receiver();
    try {
      const url = `${rx.url}/api/v1/psp/api-pix/${generateTxid()}`;
      await client.putWebhook("Pagamentos@Loja.example".toLowerCase(), url);
      expect(await client.getWebhook("pagamentos@loja.example")).toMatchObject({ webhookUrl: url, chave: "pagamentos@loja.example" });
      expect((await client.testConnection("pagamentos@loja.example")).webhook?.webhookUrl).toBe(url);
      expect(await client.testConnection(psp.keys[1])).toEqual({ webhook: null });
      const e = await failure(client.putWebhook("outra@loja.example", url), "psp_rejected");
      expect(e.problem?.type).toBe("https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida");
    } finally {
      await rx.close();
    }
  });

  it("the PSP posts { pix: [...] } to {webhookUrl}/pix when a cob is paid and when a refund settles; a dropped one never arrives", async () => {
    const client = clientFor();
    const rx = await receiver();
    psp.dropWebhooks(); // notifications of the payments of earlier tests
    try {
      const chave = psp.keys[1];
      const url = `${rx.url}/api/v1/psp/api-pix/${generateTxid()}`;
      await client.putWebhook(chave, url);
      const txid = generateTxid();
      await client.createCob(txid, buildCobRequest({ amount: 3_000, chave, expiracao: 3600 }));

      const pix = await psp.pay(txid, { notify: "deliver" });
      expect(rx.hits).toHaveLength(1);
      expect(rx.hits[0].method).toBe("POST");
      expect(rx.hits[0].url).toBe(`${new URL(url).pathname}/pix`);
      const body = webhookPixCallbackSchema.parse(rx.hits[0].body);
      expect(body.pix.map((p) => [p.endToEndId, p.txid, p.valor])).toEqual([[pix.endToEndId, txid, "30.00"]]);

      const dropped = generateTxid();
      await client.createCob(dropped, buildCobRequest({ amount: 100, chave, expiracao: 3600 }));
      await psp.pay(dropped);
      expect(psp.dropWebhooks()).toBe(1);
      expect(await psp.deliverWebhooks()).toEqual([]);
      expect(rx.hits).toHaveLength(1);
      // The payment is still there for a reconciliation to find.
      expect((await client.getCob(dropped)).status).toBe("CONCLUIDA");

      await client.requestDevolucao(pix.endToEndId, "9", buildDevolucaoRequest({ amount: 3_000 }));
      psp.settleDevolucao(pix.endToEndId, "9", "DEVOLVIDO");
      const sent = await psp.deliverWebhooks();
      expect(sent.map((d) => d.status)).toEqual([200]);
      expect(rx.hits).toHaveLength(2);
      expect(webhookPixCallbackSchema.parse(rx.hits[1].body).pix[0].devolucoes?.map((d) => d.status)).toEqual(["DEVOLVIDO"]);
    } finally {
      await rx.close();
    }
  });
});

describe("webhook over HTTPS", () => {
  it("the PSP presents its own client certificate to an HTTPS receiver (mutual TLS, as the spec asks)", async () => {
    const seen: { authorized: boolean; subject: string; url?: string }[] = [];
    const rx = https.createServer(
      { key: pki.server.keyPem, cert: pki.server.certPem, ca: [pki.ca.certPem], requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const socket = req.socket as TLSSocket;
        seen.push({ authorized: socket.authorized, subject: String(socket.getPeerCertificate().subject?.CN), url: req.url });
        req.resume();
        req.on("end", () => res.writeHead(200).end());
      },
    );
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", () => r()));
    const tlsPsp = await startApiPixPsp({ pki, webhookCaPem: pki.ca.certPem });
    try {
      const client = clientFor({}, tlsPsp);
      const url = `https://127.0.0.1:${(rx.address() as AddressInfo).port}/api/v1/psp/api-pix/abc`;
      await client.putWebhook(tlsPsp.keys[0], url);
      const txid = generateTxid();
      await client.createCob(txid, buildCobRequest({ amount: 100, chave: tlsPsp.keys[0], expiracao: 600 }));
      await tlsPsp.pay(txid);
      expect((await tlsPsp.deliverWebhooks()).map((d) => d.status)).toEqual([200]);
      expect(seen).toEqual([{ authorized: true, subject: "psp-de-testes-webhooks", url: "/api/v1/psp/api-pix/abc/pix" }]);
      expect(tlsPsp.internalErrors).toEqual([]);
    } finally {
      await tlsPsp.close();
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });
});

describe("secrets", () => {
  it("no client secret, token, key, or PKCS#12 password appears in the client's errors or in its log output", () => {
    // Every kind of failure above went through `failure()`; make sure the list is broad.
    expect(new Set(seenErrors.map((e) => e.code))).toEqual(
      new Set<ApiPixErrorCode>([
        "not_found",
        "psp_rejected",
        "invalid_request",
        "unauthorized",
        "invalid_client_credentials",
        "client_certificate_invalid",
        "client_certificate_refused",
        "server_certificate_untrusted",
        "server_hostname_mismatch",
        "host_unreachable",
        "psp_unavailable",
        "timeout",
      ]),
    );
    const keyLines = [pki.client.keyPem, pki.untrustedClient.keyPem].flatMap((pem) => pem.split("\n").filter((l) => l.length > 40));
    const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString("base64");
    const secrets = [psp.clientSecret, basic, pki.clientP12.passphrase, ...psp.issuedTokens(), ...extraSecrets, ...keyLines];
    expect(psp.issuedTokens().length).toBeGreaterThan(5);
    expect(logLines.length).toBeGreaterThan(20);

    const texts = [
      logLines.join("\n"),
      ...seenErrors.flatMap((e) => [e.message, e.stack ?? "", JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })]),
    ];
    // A secret's head or tail is a leak too (a log line with "the first characters of the token").
    const fragments = secrets.flatMap((s) => (s.length >= 24 ? [s, s.slice(0, 12), s.slice(-12)] : [s]));
    for (const fragment of fragments) {
      for (const text of texts) expect(text.includes(fragment), `a secret leaked into: ${text.slice(0, 200)}`).toBe(false);
    }
  });
});
