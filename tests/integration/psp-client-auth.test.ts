/**
 * How Arara's API Pix client presents itself to PSPs that are stricter than the default stand-in, as
 * real ones are (local PSP, real mutual TLS and OAuth):
 *
 * - scopes: the token request asks the API Pix operations' scopes by default, so a PSP that grants
 *   only what is asked (BS2, BB, Sicoob, Sicredi, Inter, PagBank) serves every call; "none" and a
 *   custom list are sent as configured;
 * - client authentication in the body with a certificate-bound client id and no secret (Sicoob),
 *   with the `client_id` header on every API call;
 * - a developer key in the API URL's query (Banco do Brasil's `gw-dev-app-key`) kept on every call,
 *   before the operation's own query;
 * - the same through the dashboard's settings (saved, stored, used for the webhook and Testar conexão).
 */
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, companies } from "@/lib/db/schema";
import {
  ApiPixClient,
  ApiPixError,
  buildCobRequest,
  cobExpiracaoSeconds,
  generateTxid,
  type ApiPixClientConfig,
} from "@/lib/processors/api-pix";
import { clientConfigOf, closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { DEFAULT_API_PIX_SCOPE } from "@/lib/processors/api-pix/oauth-session";
import { getPspSettings, savePspSettings, testPspConnection } from "@/lib/services/psp/api-pix-settings";
import { ServiceError } from "@/lib/services/errors";
import { systemContext } from "@/lib/services/context";
import { localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp } from "@/tests/helpers/api-pix-psp";
import { createTestAccount } from "@/tests/helpers/accounts";

const KEY = "pagamentos@loja.example";
const pki = makeTestPki();
const started: ApiPixPsp[] = [];
const clients: ApiPixClient[] = [];
const logger = pino({ level: "silent" });

afterAll(async () => {
  for (const c of clients) c.close();
  closeApiPixClients();
  for (const p of started) {
    expect(p.internalErrors).toEqual([]);
    await p.close();
  }
});

async function strictPsp(options: Parameters<typeof startApiPixPsp>[0] = {}): Promise<ApiPixPsp> {
  const psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true, ...options });
  started.push(psp);
  return psp;
}

function clientOf(psp: ApiPixPsp, overrides: Partial<ApiPixClientConfig> = {}): ApiPixClient {
  const c = new ApiPixClient({
    baseUrl: psp.baseUrl,
    tokenUrl: psp.tokenUrl,
    clientId: psp.clientId,
    clientSecret: psp.clientSecret,
    certificate: { certPem: pki.client.certPem, keyPem: pki.client.keyPem },
    caPem: pki.ca.certPem,
    timeoutMs: 5_000,
    logger,
    ...overrides,
  });
  clients.push(c);
  return c;
}

const cobBody = (amount: number) => buildCobRequest({ amount, chave: KEY, expiracao: cobExpiracaoSeconds({ expiresInDays: 1 }), solicitacaoPagador: "Pedido 7" });

async function errorOf(p: Promise<unknown>): Promise<ApiPixError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiPixError);
  return e as ApiPixError;
}

describe("scopes", () => {
  it("by default the token asks the API Pix operations' scopes, and a PSP that grants only what is asked serves charges, Pix reads and the webhook", async () => {
    const psp = await strictPsp({ requireScopes: true });
    const client = clientOf(psp);
    const txid = generateTxid();
    const cob = await client.createCob(txid, cobBody(2_500));
    expect(cob.status).toBe("ATIVA");
    expect((await client.getCob(txid)).txid).toBe(txid);
    await client.putWebhook(KEY, "https://loja.example/api/v1/psp/api-pix/abc");
    expect((await client.testConnection(KEY)).webhook?.webhookUrl).toBe("https://loja.example/api/v1/psp/api-pix/abc");
    const now = new Date();
    expect(await client.listPix({ inicio: new Date(now.getTime() - 3_600_000), fim: now })).toMatchObject({ pix: [] });

    // Testar conexão asks a token of its own: every token asked the same scopes and got them.
    expect(psp.tokenGrants.length).toBeGreaterThan(0);
    for (const grant of psp.tokenGrants) {
      expect(grant.requested).toBe(DEFAULT_API_PIX_SCOPE);
      expect([...grant.granted].sort()).toEqual(DEFAULT_API_PIX_SCOPE.split(" ").sort());
    }
    expect(psp.scopeDenials).toEqual([]);
  });

  it("with no scope asked, such a PSP grants none and the call is refused as access_denied, naming the scopes to check", async () => {
    const psp = await strictPsp({ requireScopes: true });
    const e = await errorOf(clientOf(psp, { scope: "" }).createCob(generateTxid(), cobBody(100)));
    expect(e.code).toBe("access_denied");
    expect(e.httpStatus).toBe(403);
    expect(e.message).toContain("cob.write");
    expect(e.message).toContain("Escopos");
    expect(psp.tokenGrants[0].requested).toBeNull();
    expect(psp.scopeDenials).toEqual([expect.objectContaining({ method: "PUT", scope: "cob.write" })]);
  });

  it("a custom list is sent as written: a token without cob.write cannot charge, one with it can", async () => {
    const psp = await strictPsp({ requireScopes: true });
    expect((await errorOf(clientOf(psp, { scope: "pix.read webhook.read" }).createCob(generateTxid(), cobBody(100)))).code).toBe("access_denied");
    expect(psp.tokenGrants[0].requested).toBe("pix.read webhook.read");
    const cob = await clientOf(psp, { scope: "cob.write" }).createCob(generateTxid(), cobBody(100));
    expect(cob.status).toBe("ATIVA");
  });
});

describe("client authentication in the body (certificate-bound client id, no secret)", () => {
  it("sends client_id in the token form and as a header on every call; no secret is needed or sent", async () => {
    const psp = await strictPsp({ clientAuth: "body" });
    const client = clientOf(psp, { clientAuth: "body", clientSecret: undefined });
    const txid = generateTxid();
    await client.createCob(txid, cobBody(990));
    expect((await client.getCob(txid)).valor.original).toBe("9.90");
    expect(psp.requests.filter((r) => r.kind === "api").every((r) => r.status === 200 || r.status === 201)).toBe(true);
  });

  it("HTTP Basic against such a PSP is refused at the token endpoint as invalid credentials", async () => {
    const psp = await strictPsp({ clientAuth: "body" });
    const e = await errorOf(clientOf(psp).createCob(generateTxid(), cobBody(100)));
    expect(e.code).toBe("invalid_client_credentials");
  });

  it("HTTP Basic without a secret is a configuration error before anything is sent", () => {
    expect(() => clientOf({ baseUrl: "https://psp.example/api/v2", tokenUrl: "https://psp.example/oauth/token", clientId: "app", clientSecret: "" } as ApiPixPsp, { clientSecret: undefined })).toThrow(
      /client secret/,
    );
  });
});

describe("a developer key in the API URL (Banco do Brasil's gw-dev-app-key)", () => {
  it("is kept on every call, before the operation's own query", async () => {
    const psp = await strictPsp({ requiredQuery: { "gw-dev-app-key": "DEVKEY123" } });
    const client = clientOf(psp, { baseUrl: `${psp.baseUrl}?gw-dev-app-key=DEVKEY123` });
    const txid = generateTxid();
    await client.createCob(txid, cobBody(1_000));
    await client.getCob(txid);
    const now = new Date();
    await client.listPix({ inicio: new Date(now.getTime() - 3_600_000), fim: now });
    const api = psp.requests.filter((r) => r.kind === "api");
    expect(api.map((r) => [r.method, r.path.replace(/\/[A-Za-z0-9]{26,35}$/, "/{txid}"), r.status])).toEqual([
      ["PUT", new URL(psp.baseUrl).pathname + "/cob/{txid}", 201],
      ["GET", new URL(psp.baseUrl).pathname + "/cob/{txid}", 200],
      ["GET", new URL(psp.baseUrl).pathname + "/pix", 200],
    ]);
    expect(api[0].query).toBe("?gw-dev-app-key=DEVKEY123");
    expect(api[2].query).toMatch(/^\?gw-dev-app-key=DEVKEY123&inicio=/);
  });
});

describe("through the dashboard's settings", () => {
  async function account(name: string) {
    const acc = await createTestAccount(name);
    const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    return systemContext(row);
  }

  it("the defaults (Basic, the API Pix scopes) register the webhook at a PSP that enforces scopes", async () => {
    const psp = await strictPsp({ requireScopes: true });
    const ctx = await account("Escopos padrão");
    const saved = await savePspSettings(ctx, { ...localPspSettings(psp, pki, KEY) });
    expect(saved.webhook).toEqual({ registered: true });
    expect(saved.view).toMatchObject({ clientAuth: "basic", scopeMode: "default", scope: "" });
    const row = (await pspConfigOf(ctx.account.id))!;
    expect(row.scope).toBeNull();
    expect(clientConfigOf(row).scope).toBe(DEFAULT_API_PIX_SCOPE);
    expect(await testPspConnection(ctx)).toMatchObject({ ok: true, webhookMatches: true });
  });

  it("client_id in the body with no secret: saved without one (a stored secret removed), used for the webhook and the test", async () => {
    const psp = await strictPsp({ clientAuth: "body", requiredQuery: { "gw-dev-app-key": "K9" } });
    const ctx = await account("Sem secret");
    const base = localPspSettings(psp, pki, KEY);
    // First saved with a secret and Basic (what the merchant tried first): the PSP refuses the token.
    const first = await savePspSettings(ctx, { ...base, baseUrl: `${psp.baseUrl}?gw-dev-app-key=K9` });
    expect(first.webhook).toMatchObject({ registered: false });
    expect((await pspConfigOf(ctx.account.id))!.clientSecretEnc).not.toBeNull();

    // A later request (its own clock): the saved change makes a new client.
    const later = { ...ctx, now: new Date(ctx.now.getTime() + 1_000) };
    const saved = await savePspSettings(later, { ...base, baseUrl: `${psp.baseUrl}?gw-dev-app-key=K9`, clientSecret: "", clientAuth: "body", noClientSecret: true, certificate: null, privateKey: null });
    expect(saved.webhook).toEqual({ registered: true });
    const row = (await pspConfigOf(ctx.account.id))!;
    expect(row).toMatchObject({ clientAuth: "body", clientSecretEnc: null, baseUrl: `${psp.baseUrl}?gw-dev-app-key=K9` });
    expect(await testPspConnection(ctx)).toMatchObject({ ok: true, webhookMatches: true });
    expect((await getPspSettings(ctx)).hasClientSecret).toBe(false);
  });

  it("refuses what cannot work: Basic without a secret, a secret typed while 'no secret' is ticked, a custom scope list that is empty or has quotes", async () => {
    const psp = await strictPsp();
    const ctx = await account("Campos recusados");
    const base = localPspSettings(psp, pki, KEY);
    const fieldsOf = async (input: Parameters<typeof savePspSettings>[1]) => {
      const e = await savePspSettings(ctx, input).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ServiceError);
      return (e as ServiceError).errors?.map((x) => x.field);
    };
    expect(await fieldsOf({ ...base, clientSecret: "" })).toEqual(["clientSecret"]);
    expect(await fieldsOf({ ...base, clientAuth: "body", noClientSecret: true })).toEqual(["clientSecret"]);
    expect(await fieldsOf({ ...base, scopeMode: "custom", scope: "   " })).toEqual(["scope"]);
    expect(await fieldsOf({ ...base, scopeMode: "custom", scope: 'cob.write "x"' })).toEqual(["scope"]);
    expect(await fieldsOf({ ...base, clientAuth: "digest" })).toEqual(["clientAuth"]);
    expect(await pspConfigOf(ctx.account.id)).toBeNull();

    // A custom list is stored normalized and asked as written; "none" is stored as "".
    await savePspSettings(ctx, { ...base, scopeMode: "custom", scope: " cob.write   cob.read\tpix.read " });
    expect((await pspConfigOf(ctx.account.id))!.scope).toBe("cob.write cob.read pix.read");
    await savePspSettings({ ...ctx, now: new Date(ctx.now.getTime() + 1_000) }, { ...base, certificate: null, privateKey: null, scopeMode: "none" });
    const row = (await pspConfigOf(ctx.account.id))!;
    expect(row.scope).toBe("");
    expect((await getPspSettings(ctx)).scopeMode).toBe("none");
    const [stored] = await getDb().select({ clientAuth: accountPspConfigs.clientAuth }).from(accountPspConfigs).where(eq(accountPspConfigs.id, row.id));
    expect(stored.clientAuth).toBe("basic");
  });
});
