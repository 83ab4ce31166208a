/**
 * The merchant's client certificate for the API Pix, in the forms PSPs and banks hand out, saved in
 * "Recebimento PIX" and then used against the local PSP (real mutual TLS and OAuth):
 *
 * - a PEM private key protected by a password (PKCS#8 `ENCRYPTED PRIVATE KEY`, or the traditional
 *   `Proc-Type: 4,ENCRYPTED`): the password saved in "Senha do certificado" opens it for every call
 *   (webhook registration, "Testar conexão", charges, Efí cash-outs), not only for the check at save;
 * - a legacy PKCS#12 (`openssl pkcs12 -export -legacy`: RC2-40 and 3DES, as many bank-issued .pfx
 *   files are), which Node on OpenSSL 3 cannot read: read with node-forge and used;
 * - what is refused says why: a wrong or missing password says the password, a bundle whose
 *   encryption cannot be read says so and how to convert it.
 *
 * Certificates are made at test time: the PSP's PKI with node-forge (tests/helpers/api-pix-psp), the
 * encrypted keys with node:crypto, the legacy bundles with the `openssl` command.
 */
import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import forge from "node-forge";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, companies, pspPayouts } from "@/lib/db/schema";
import { clientConfigOf, pspConfigOf } from "@/lib/processors/api-pix/config";
import { statedIterations } from "@/lib/processors/api-pix/certificate";
import { getPspSettings, savePspSettings, testPspConnection, type PspSettingsInput } from "@/lib/services/psp/api-pix-settings";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { systemContext, type Account } from "@/lib/services/context";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { localPspSettings } from "../helpers/api-pix-psp";
import { createTestAccount } from "../helpers/accounts";
import { call } from "../helpers/app";
import { pixBody } from "../helpers/flows";
import { cashOut } from "../helpers/money";
import { localPspForFile, paidPixAtPsp } from "../helpers/psp-accounts";

const RECEIVING_KEY = "pagamentos@loja.example";
const PAYER_KEY = "saques@loja.example";
const local = localPspForFile([RECEIVING_KEY, PAYER_KEY]);

const KEY_PASSWORD = "keysenha";
const P12_PASSWORD = "p12senha";
const enc = (s: string) => new TextEncoder().encode(s);

const work = mkdtempSync(path.join(tmpdir(), "arara-certs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The PSP-issued client key, encrypted with `password` (PKCS#8 or the traditional PEM form). */
function encryptedKey(form: "pkcs8" | "traditional", password = KEY_PASSWORD): string {
  return createPrivateKey(local.pki.client.keyPem)
    .export({ type: form === "pkcs8" ? "pkcs8" : "pkcs1", format: "pem", cipher: "aes-256-cbc", passphrase: password })
    .toString();
}

/** The client certificate, its key and the PSP's CA as a PKCS#12 made by the openssl command (extra flags: the algorithms). */
function opensslP12(name: string, flags: string[]): Buffer {
  const certFile = path.join(work, `${name}.crt`);
  const keyFile = path.join(work, `${name}.key`);
  const caFile = path.join(work, `${name}-ca.crt`);
  const out = path.join(work, `${name}.p12`);
  writeFileSync(certFile, local.pki.client.certPem);
  writeFileSync(keyFile, local.pki.client.keyPem);
  writeFileSync(caFile, local.pki.ca.certPem);
  execFileSync("openssl", ["pkcs12", "-export", ...flags, "-in", certFile, "-inkey", keyFile, "-certfile", caFile, "-out", out, "-passout", `pass:${P12_PASSWORD}`], {
    stdio: "pipe",
  });
  return readFileSync(out);
}

/** A legacy bundle made by node-forge: the key under PBES2 with single DES, which OpenSSL 3 keeps in its legacy provider. */
function forgeDesP12(): Buffer {
  const key = forge.pki.privateKeyFromPem(local.pki.client.keyPem);
  const certs = [forge.pki.certificateFromPem(local.pki.client.certPem), forge.pki.certificateFromPem(local.pki.ca.certPem)];
  // "des" is not in the typings' list, but forge's encryptPrivateKeyInfo takes it.
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certs, P12_PASSWORD, { algorithm: "des" as "3des" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

async function accountRow(id: number): Promise<Account> {
  const [a] = await getDb().select().from(companies).where(eq(companies.id, id));
  return a;
}

function settingsWith(over: Partial<PspSettingsInput>): PspSettingsInput {
  return { ...localPspSettings(local.psp, local.pki, RECEIVING_KEY), ...over };
}

/** Saves these settings for a new account; returns the account and the outcome (or the error). */
async function saveFor(over: Partial<PspSettingsInput>) {
  const acc = await createTestAccount("Loja Certificado");
  const row = await accountRow(acc.companyId);
  const outcome = await savePspSettings(systemContext(row), settingsWith(over)).catch((e: unknown) => e);
  return { acc, row, outcome };
}

/** Saved, webhook registered at the PSP (which needs the certificate to load from the stored settings), and the connection test passes. */
async function expectWorking(over: Partial<PspSettingsInput>): Promise<CreatedAccount & { row: Account }> {
  const { acc, row, outcome } = await saveFor(over);
  expect(outcome).toMatchObject({ webhook: { registered: true } });
  const test = await testPspConnection({ account: row });
  expect(test).toMatchObject({ ok: true });
  const stored = (await pspConfigOf(acc.companyId))!;
  // The client every PSP call is made with, from what is stored.
  expect(() => clientConfigOf(stored)).not.toThrow();
  return { ...acc, row };
}

async function createCharge(secretKey: string) {
  const r = await call("POST", "/api/v1/transactions", { auth: secretKey, body: pixBody() });
  expect(r.status, r.text).toBe(201);
  expect(r.body.data.acquirerType).toBe("api-pix");
  return r.body.data;
}

function expectRefused(outcome: unknown, message: RegExp) {
  expect(outcome).toMatchObject({ code: "validation_error", errors: [{ field: "certificate", message: expect.stringMatching(message) }] });
}

const WRONG_PASSWORD = /senha do certificado está incorreta/i;

describe("a PEM private key protected by a password", () => {
  it("PKCS#8 (ENCRYPTED PRIVATE KEY) in its own file: saved, webhook registered, Testar conexão ok, charges made at the PSP", async () => {
    const key = encryptedKey("pkcs8");
    expect(key).toContain("BEGIN ENCRYPTED PRIVATE KEY");
    const acc = await expectWorking({ privateKey: enc(key), certificatePassword: KEY_PASSWORD });
    const [row] = await getDb().select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, acc.companyId));
    expect(row.keyPemEnc).not.toBeNull();
    expect(row.pkcs12PasswordEnc).not.toBeNull();
    expect(row.pkcs12Enc).toBeNull();
    // The settings page says a password is stored (a blank field keeps it).
    expect(await getPspSettings({ account: acc.row })).toMatchObject({ certificate: "pem", hasCertificatePassword: true });
    await createCharge(acc.secretKey);
  });

  it("traditional (Proc-Type: 4,ENCRYPTED) in the same file as the certificate", async () => {
    const key = encryptedKey("traditional");
    expect(key).toContain("Proc-Type: 4,ENCRYPTED");
    const acc = await expectWorking({ certificate: enc(local.pki.client.certPem + key), privateKey: null, certificatePassword: KEY_PASSWORD });
    await createCharge(acc.secretKey);
  });

  it("a wrong password, or none, is refused when saving and says it is the password", async () => {
    const key = enc(encryptedKey("pkcs8"));
    const wrong = await saveFor({ privateKey: key, certificatePassword: "outra-senha" });
    expectRefused(wrong.outcome, WRONG_PASSWORD);
    expect(await pspConfigOf(wrong.acc.companyId)).toBeNull();
    const none = await saveFor({ privateKey: key });
    expectRefused(none.outcome, /protegida por senha: informe-a em “Senha do certificado”/);
  });

  it("the right password but the key of another certificate says they do not form a pair, not the password", async () => {
    const other = createPrivateKey(local.pki.untrustedClient.keyPem).export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: KEY_PASSWORD }).toString();
    const { outcome } = await saveFor({ privateKey: enc(other), certificatePassword: KEY_PASSWORD });
    expectRefused(outcome, /formam um par/);
    expect((outcome as Error).message).not.toMatch(/senha/i);
  });

  it("a new password alone (the key kept) must open the stored key too", async () => {
    const acc = await expectWorking({ privateKey: enc(encryptedKey("pkcs8")), certificatePassword: KEY_PASSWORD });
    const before = await pspConfigOf(acc.companyId);
    const err = await savePspSettings(systemContext(acc.row), { ...settingsWith({}), certificate: null, privateKey: null, certificatePassword: "outra-senha" }).catch((e) => e);
    expectRefused(err, WRONG_PASSWORD);
    expect((await pspConfigOf(acc.companyId))!.pkcs12PasswordEnc).toBe(before!.pkcs12PasswordEnc);
    // The right one again, nothing uploaded: still works.
    const again = await savePspSettings(systemContext(acc.row), { ...settingsWith({}), certificate: null, privateKey: null, certificatePassword: KEY_PASSWORD });
    expect(again.webhook).toEqual({ registered: true });
    expect(await testPspConnection({ account: acc.row })).toMatchObject({ ok: true });
  });

  it("Efí cash-outs use the key's password too", async () => {
    const over = { privateKey: enc(encryptedKey("pkcs8")), certificatePassword: KEY_PASSWORD };
    const acc = await expectWorking(over);
    await paidPixAtPsp(acc, local.psp, 20_000);
    const saved = await savePspSettings(systemContext(acc.row), settingsWith({ ...over, payoutEfi: true, payoutPayerKey: PAYER_KEY }));
    expect(saved.webhook).toEqual({ registered: true });
    const res = await cashOut(acc, { amount: 1_000, pixKey: "maria@example.com" });
    expect(res.status, res.text).toBe(201);
    const [payout] = await getDb().select().from(pspPayouts).where(eq(pspPayouts.cashOutId, res.body.data.id));
    await advanceDueCashOuts({ now: new Date(Date.now()) });
    expect(local.psp.efi.sends.has(payout.idEnvio)).toBe(true);
  });
});

describe("PKCS#12 bundles", () => {
  it("a legacy bundle (openssl -legacy: RC2-40 and 3DES) with its password is accepted and used", async () => {
    const pfx = opensslP12("legacy", ["-legacy"]);
    const acc = await expectWorking({ certificate: new Uint8Array(pfx), privateKey: null, certificatePassword: P12_PASSWORD });
    const [row] = await getDb().select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, acc.companyId));
    // The bundle is what is stored (encrypted); it is converted in memory when loaded.
    expect(row.pkcs12Enc).not.toBeNull();
    expect(row.keyPemEnc).toBeNull();
    await createCharge(acc.secretKey);
  });

  it("a legacy bundle with a wrong password, or none, says the password is wrong", async () => {
    const pfx = new Uint8Array(opensslP12("legacy-wrong", ["-legacy"]));
    expectRefused((await saveFor({ certificate: pfx, privateKey: null, certificatePassword: "senha-errada" })).outcome, WRONG_PASSWORD);
    expectRefused((await saveFor({ certificate: pfx, privateKey: null })).outcome, /protegido por senha: informe-a/);
  });

  it("a bundle with another algorithm Node does not read (PBES2 with DES, made by node-forge) is read with node-forge", async () => {
    const acc = await expectWorking({ certificate: new Uint8Array(forgeDesP12()), privateKey: null, certificatePassword: P12_PASSWORD });
    await createCharge(acc.secretKey);
  });

  it("a bundle neither can read (RC2-128) is refused saying its encryption is not supported and how to convert it, not the password", async () => {
    const pfx = opensslP12("rc2-128", ["-legacy", "-certpbe", "PBE-SHA1-RC2-128", "-keypbe", "PBE-SHA1-RC2-128"]);
    const { outcome } = await saveFor({ certificate: new Uint8Array(pfx), privateKey: null, certificatePassword: P12_PASSWORD });
    expectRefused(outcome, /criptografia que não é suportada/);
    const message = (outcome as Error).message;
    expect(message).toContain("openssl pkcs12 -legacy -in certificado.p12 -nodes -out cert-e-chave.pem");
    expect(message).not.toMatch(/senha.*(incorreta|está correta)/i);
  });

  it("a file asking for millions of key-derivation iterations is refused before anything is derived (it would hold the server's thread)", async () => {
    const TOO_MANY = /pede mais de 200\.000 iterações/;
    // Legacy (read by node-forge, in JavaScript) and modern (read by Node, in a synchronous call).
    for (const [name, flags] of [
      ["legacy-2m", ["-legacy", "-iter", "2000000"]],
      ["modern-2m", ["-iter", "2000000"]],
    ] as const) {
      const pfx = opensslP12(name, [...flags]);
      expect(statedIterations(pfx), name).toBe(2_000_000);
      expectRefused((await saveFor({ certificate: new Uint8Array(pfx), privateKey: null, certificatePassword: P12_PASSWORD })).outcome, TOO_MANY);
    }
    // An encrypted PKCS#8 key states its PBKDF2 count too.
    const keyFile = path.join(work, "many-iterations.key");
    writeFileSync(keyFile, local.pki.client.keyPem);
    const slowKey = execFileSync("openssl", ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-iter", "2000000", "-in", keyFile, "-passout", `pass:${KEY_PASSWORD}`], { encoding: "utf8" });
    expectRefused((await saveFor({ privateKey: enc(slowKey), certificatePassword: KEY_PASSWORD })).outcome, TOO_MANY);
    // The counts exports use are far below the cap: openssl's default bundles are read as before (above).
    expect(statedIterations(opensslP12("default-count", ["-legacy"]))).toBe(2048);
  });

  it("a modern bundle with a wrong password still says the password is wrong", async () => {
    const { outcome } = await saveFor({ certificate: new Uint8Array(local.pki.clientP12.pfx), privateKey: null, certificatePassword: "senha-errada" });
    expectRefused(outcome, WRONG_PASSWORD);
  });

  it("a file that is neither PEM nor PKCS#12 (a DER certificate) says so", async () => {
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(forge.pki.certificateFromPem(local.pki.client.certPem))).getBytes(), "binary");
    const { outcome } = await saveFor({ certificate: new Uint8Array(der), privateKey: null, certificatePassword: P12_PASSWORD });
    expectRefused(outcome, /não é um certificado PEM \(.pem\/.crt\) nem um PKCS#12/);
  });
});
