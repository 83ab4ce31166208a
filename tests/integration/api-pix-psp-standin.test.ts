/**
 * The local PSP's own options that make it stricter than the default (tests/helpers/api-pix-psp):
 * scopes enforced per operation, client authentication by `client_id` in the body (and header), and
 * query parameters required on every API call. Raw HTTPS requests, no Arara code: these check the
 * stand-in, so that tests of the client against it prove something.
 */
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";

let pki: TestPki;
const started: ApiPixPsp[] = [];

beforeAll(() => {
  pki = makeTestPki();
});
afterAll(async () => {
  for (const p of started) await p.close();
});

async function start(options: Parameters<typeof startApiPixPsp>[0]) {
  const psp = await startApiPixPsp({ pki, ...options });
  started.push(psp);
  return psp;
}

function call(psp: ApiPixPsp, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: psp.host, port: psp.port, method, path, headers, cert: pki.client.certPem, key: pki.client.keyPem, ca: pki.ca.certPem, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const form = { "content-type": "application/x-www-form-urlencoded" };
const basic = (psp: ApiPixPsp) => ({ authorization: "Basic " + Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString("base64") });

async function tokenFor(psp: ApiPixPsp, body: string, headers: Record<string, string> = basic(psp)) {
  const r = await call(psp, "POST", "/oauth/token", { ...form, ...headers }, body);
  return r as { status: number; json: { access_token: string; scope?: string } };
}

describe("requireScopes", () => {
  it("grants only the known scopes asked for, echoes them, and refuses an operation without its scope (403 AcessoNegado)", async () => {
    const psp = await start({ requireScopes: true });
    const t = await tokenFor(psp, "grant_type=client_credentials&scope=cob.read%20pix.read%20nonsense.write");
    expect(t.status).toBe(200);
    expect(t.json.scope).toBe("cob.read pix.read");
    expect(psp.tokenGrants.at(-1)).toEqual({ requested: "cob.read pix.read nonsense.write", granted: ["cob.read", "pix.read"] });
    const auth = { authorization: `Bearer ${t.json.access_token}` };
    const txid = "a".repeat(30);
    expect((await call(psp, "GET", `/api/v2/cob/${txid}`, auth)).status).toBe(404); // allowed, just absent
    const put = await call(psp, "PUT", `/api/v2/cob/${txid}`, { ...auth, "content-type": "application/json" }, JSON.stringify({ calendario: {}, valor: { original: "1.00" }, chave: psp.keys[0] }));
    expect(put.status).toBe(403);
    expect(put.json).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado", title: "Acesso Negado", status: 403 });
    expect((await call(psp, "GET", `/api/v2/webhook/${encodeURIComponent(psp.keys[0])}`, auth)).status).toBe(403);
    expect(psp.scopeDenials.map((d) => d.scope)).toEqual(["cob.write", "webhook.read"]);
  });

  it("grants nothing when no scope is asked for; off by default every token carries every scope", async () => {
    const strict = await start({ requireScopes: true });
    const t = await tokenFor(strict, "grant_type=client_credentials");
    expect(strict.tokenGrants.at(-1)).toEqual({ requested: null, granted: [] });
    expect((await call(strict, "GET", `/api/v2/cob/${"a".repeat(30)}`, { authorization: `Bearer ${t.json.access_token}` })).status).toBe(403);
    const lax = await start({});
    const u = await tokenFor(lax, "grant_type=client_credentials");
    expect((await call(lax, "GET", `/api/v2/cob/${"a".repeat(30)}`, { authorization: `Bearer ${u.json.access_token}` })).status).toBe(404);
  });
});

describe('clientAuth: "body"', () => {
  it("takes only client_id in the body, and then wants the client_id header on every API call", async () => {
    const psp = await start({ clientAuth: "body" });
    expect((await tokenFor(psp, "grant_type=client_credentials")).status).toBe(401); // Basic is not how this PSP knows clients
    expect((await tokenFor(psp, `grant_type=client_credentials&client_id=${psp.clientId}&client_secret=${psp.clientSecret}`, {})).status).toBe(401);
    expect((await tokenFor(psp, `grant_type=client_credentials&client_id=other`, {})).status).toBe(401);
    const t = await tokenFor(psp, `grant_type=client_credentials&client_id=${psp.clientId}`, {});
    expect(t.status).toBe(200);
    const path = `/api/v2/cob/${"a".repeat(30)}`;
    expect((await call(psp, "GET", path, { authorization: `Bearer ${t.json.access_token}` })).status).toBe(401);
    expect((await call(psp, "GET", path, { authorization: `Bearer ${t.json.access_token}`, client_id: psp.clientId })).status).toBe(404);
  });
});

describe("requiredQuery", () => {
  it("wants the parameters on every API call (not the token), and the operations still read their own query", async () => {
    const psp = await start({ requiredQuery: { "gw-dev-app-key": "K123" } });
    const t = await tokenFor(psp, "grant_type=client_credentials");
    expect(t.status).toBe(200);
    const auth = { authorization: `Bearer ${t.json.access_token}` };
    const path = `/api/v2/cob/${"a".repeat(30)}`;
    const missing = await call(psp, "GET", path, auth);
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ status: 401, title: "Acesso Negado" });
    expect((await call(psp, "GET", `${path}?gw-dev-app-key=wrong`, auth)).status).toBe(401);
    expect((await call(psp, "GET", `${path}?gw-dev-app-key=K123`, auth)).status).toBe(404);
    const list = await call(psp, "GET", `/api/v2/pix?inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z&gw-dev-app-key=K123`, auth);
    expect(list.status).toBe(200);
    expect(psp.requests.at(-1)?.query).toContain("gw-dev-app-key=K123");
  });
});

describe("PATCH /cob/{txid}", () => {
  it("removes an ATIVA charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR, alone), refuses what the spec refuses, and needs cob.write", async () => {
    const psp = await start({ requireScopes: true });
    const t = await tokenFor(psp, "grant_type=client_credentials&scope=cob.write%20cob.read");
    const json = { authorization: `Bearer ${t.json.access_token}`, "content-type": "application/json" };
    const txid = "b".repeat(30);
    const path = `/api/v2/cob/${txid}`;
    const patch = (body: unknown, p = path, headers: Record<string, string> = json) => call(psp, "PATCH", p, headers, JSON.stringify(body));
    const removal = { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" };

    expect(await patch(removal)).toMatchObject({ status: 404, json: { type: "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado" } });
    expect((await call(psp, "PUT", path, json, JSON.stringify({ calendario: {}, valor: { original: "1.00" }, chave: psp.keys[0] }))).status).toBe(201);
    const invalid = { status: 400, json: { type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida" } };
    expect(await patch({ ...removal, valor: { original: "2.00" } })).toMatchObject(invalid); // removal with other changes
    expect(await patch({ status: "CONCLUIDA" })).toMatchObject(invalid); // the receiver may only remove
    expect(await patch({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR", extra: 1 })).toMatchObject(invalid);
    expect((await call(psp, "PATCH", path, { authorization: json.authorization, "content-type": "text/plain" }, "status=REMOVIDA")).status).toBe(400);
    expect(psp.cobs.get(txid)!.status).toBe("ATIVA");

    const readOnly = await tokenFor(psp, "grant_type=client_credentials&scope=cob.read");
    expect((await patch(removal, path, { ...json, authorization: `Bearer ${readOnly.json.access_token}` })).status).toBe(403);

    const removed = await patch(removal);
    expect(removed).toMatchObject({ status: 200, json: { txid, status: "REMOVIDA_PELO_USUARIO_RECEBEDOR", revisao: 1 } });
    expect(await patch(removal)).toMatchObject(invalid); // no longer ATIVA
    await expect(psp.pay(txid)).rejects.toThrow(/removed/);
  });
});
