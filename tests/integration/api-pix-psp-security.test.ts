/**
 * What a merchant's PSP settings cannot be turned into, against the local PSP (real mutual TLS):
 * the PSP's URLs are checked at every call, not only when saved, so a name pointed later at a private
 * address (or rebinding) reaches nothing, and "Testar conexão" gives one message whatever listens
 * there (no port-scan oracle).
 */
import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestAccount } from "../helpers/accounts";
import { localPspSettings, makeTestPki, startApiPixPsp, type ApiPixPsp, type TestPki } from "@/tests/helpers/api-pix-psp";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, companies } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import { ApiPixClient } from "@/lib/processors/api-pix/client";
import { clientConfigOf, closeApiPixClients, pspConfigOf } from "@/lib/processors/api-pix/config";
import { savePspSettings, testPspConnection } from "@/lib/services/psp/api-pix-settings";
import { systemContext } from "@/lib/services/context";
import { fakeDns as dns } from "../helpers/fake-dns";

const KEY = "pagamentos@loja.example";
let pki: TestPki;
let psp: ApiPixPsp;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startApiPixPsp({ pki, keys: [KEY], allowHttpWebhook: true });
});

afterEach(() => {
  (getEnv() as { webhookAllowPrivateUrls: boolean }).webhookAllowPrivateUrls = true;
  expect(psp.internalErrors).toEqual([]);
});

afterAll(async () => {
  closeApiPixClients();
  await psp?.close();
});

/** Private addresses refused, as in production (the test setup allows them). */
function disallowPrivate() {
  (getEnv() as { webhookAllowPrivateUrls: boolean }).webhookAllowPrivateUrls = false;
}

async function configuredAccount(name: string) {
  const acc = await createTestAccount(name);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
  const saved = await savePspSettings(systemContext(row), localPspSettings(psp, pki, KEY));
  expect(saved.webhook).toEqual({ registered: true });
  return { ...acc, row, config: (await pspConfigOf(acc.companyId))! };
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe("the PSP's address, checked at every call", () => {
  it("a name that resolves to a private address (set after saving, or rebinding) is refused before connecting", async () => {
    const { config } = await configuredAccount("Loja DNS");
    disallowPrivate();
    const before = psp.requests.length;
    for (const addresses of [["127.0.0.1"], ["169.254.169.254"], ["10.0.0.7"], ["203.0.114.10", "127.0.0.1"], ["::ffff:127.0.0.1"]]) {
      const client = new ApiPixClient({
        ...clientConfigOf(config),
        baseUrl: `https://psp.loja.example:${psp.port}/api/v2`,
        tokenUrl: `https://psp.loja.example:${psp.port}/oauth/token`,
        resolver: dns({ "psp.loja.example": addresses }),
      });
      try {
        const err = await client.getPix("E12345678202601011200abcdefghijk").catch((e) => e);
        expect(err, addresses.join(",")).toMatchObject({ name: "ApiPixError", code: "address_not_allowed", retryable: true });
        expect(err.message).toContain("não é permitido");
      } finally {
        client.close();
      }
    }
    // Nothing reached the PSP listening on 127.0.0.1: no token request, no call.
    expect(psp.requests.length).toBe(before);
    // A name that does not resolve is the DNS error, not a refusal.
    const gone = new ApiPixClient({ ...clientConfigOf(config), baseUrl: "https://gone.loja.example/api/v2", tokenUrl: "https://gone.loja.example/oauth/token", resolver: dns({}) });
    expect(await gone.getPix("E12345678202601011200abcdefghijk").catch((e) => e)).toMatchObject({ code: "host_unreachable" });
    gone.close();
  });

  it("Testar conexão with a stored URL on a private address: one message for an open and a closed port, nothing sent", async () => {
    const { row, config } = await configuredAccount("Loja Oráculo");
    // Allowed (development), the stand-in answers: the refusal below is the address check's doing.
    expect(await testPspConnection(systemContext(row))).toMatchObject({ ok: true });
    disallowPrivate();
    const before = psp.requests.length;
    const open = await testPspConnection(systemContext(row));
    expect(open).toMatchObject({ ok: false, code: "address_not_allowed" });

    const port = await closedPort();
    await getDb()
      .update(accountPspConfigs)
      .set({ baseUrl: `https://127.0.0.1:${port}/api/v2`, tokenUrl: `https://127.0.0.1:${port}/oauth/token`, updatedAt: new Date() })
      .where(eq(accountPspConfigs.id, config.id));
    const closed = await testPspConnection(systemContext(row));
    expect(closed).toMatchObject({ ok: false, code: "address_not_allowed" });
    const text = (r: typeof open, p: number) => (r.ok ? "" : r.message.replaceAll(String(p), "PORT"));
    expect(text(closed, port)).toBe(text(open, psp.port));
    expect(psp.requests.length).toBe(before);
  });

  it("saving: a PSP host that does not resolve is refused (a PSP's API always resolves), as is a private one", async () => {
    const acc = await createTestAccount("Loja Sem DNS");
    const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
    disallowPrivate();
    const err = await savePspSettings(systemContext(row), {
      ...localPspSettings(psp, pki, KEY),
      baseUrl: "https://api.psp-that-does-not-exist.invalid/api/v2",
    }).catch((e) => e);
    expect(err.code).toBe("validation_error");
    const byField = Object.fromEntries(err.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
    expect(byField.baseUrl).toMatch(/não foi encontrado \(DNS\)/);
    expect(byField.tokenUrl).toMatch(/rede privada ou local/);
    expect(await pspConfigOf(acc.companyId)).toBeNull();
  });
});
