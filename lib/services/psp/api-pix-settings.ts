/**
 * The dashboard's "Recebimento PIX": saving an account's processor and API Pix credentials, and
 * "Testar conexão". Secrets (client secret, private key, PKCS#12 and its password) are encrypted
 * before they are written and are never returned: the view says only whether each one is set.
 * A blank secret field keeps the stored one.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs } from "@/lib/db/schema";
import { parsePixKey } from "@/lib/domain/pix/keys";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { checkUrlHost } from "@/lib/webhooks/ssrf";
import type { ServiceContext } from "@/lib/services/context";
import { ServiceError, type FieldError } from "@/lib/services/errors";
import { ApiPixClient } from "@/lib/processors/api-pix/client";
import {
  API_PIX_PROCESSOR,
  clientConfigOf,
  clientFor,
  incompleteReason,
  PIX_PROCESSORS,
  pspConfigOf,
  sealSecret,
  storedCertificateMaterial,
  webhookUrlFor,
  type PixProcessorName,
  type PspConfigRow,
} from "@/lib/processors/api-pix/config";
import { clientCertificateFrom, type CertificateMaterial } from "@/lib/processors/api-pix/certificate";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { CLIENT_AUTHS, DEFAULT_API_PIX_SCOPE, EFI_PIX_SEND_SCOPE, type ClientAuth } from "@/lib/processors/api-pix/oauth-session";

export type PspSettingsInput = {
  processor: string;
  baseUrl?: string;
  tokenUrl?: string;
  clientId?: string;
  /** "basic" (default) or "body" (client id, and secret if any, in the token request's form). */
  clientAuth?: string;
  /** Blank: keep the stored one. */
  clientSecret?: string;
  /** With "body" auth: the PSP issued no secret; a stored one is removed and none is sent. */
  noClientSecret?: boolean;
  /** The token request's scopes: "default" (the API Pix operations'), "none", or "custom" (`scope`). */
  scopeMode?: string;
  scope?: string;
  /** An uploaded certificate: PEM text (certificate, maybe with its key) or a PKCS#12 bundle. */
  certificate?: Uint8Array | null;
  /** An uploaded PEM private key (when the certificate file has none). */
  privateKey?: Uint8Array | null;
  /** Password of the PKCS#12 bundle or of an encrypted PEM key. Blank: keep the stored one. */
  certificatePassword?: string;
  /** The CA of the PSP's server certificate, when not one the system trusts. */
  caCertificate?: Uint8Array | null;
  pixKey?: string;
  /** Send cash-outs through Efí's Pix Envio, paid from this key of the merchant's Efí account. */
  payoutEfi?: boolean;
  payoutPayerKey?: string;
};

/** What the settings page shows: never a secret, only whether it is set. */
export type PspSettingsView = {
  processor: PixProcessorName;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientAuth: ClientAuth;
  scopeMode: ScopeMode;
  /** The custom scopes (scopeMode "custom"), else "". */
  scope: string;
  /** The default scopes, and those Efí's Pix Envio adds (shown beside the choice). */
  defaultScope: string;
  efiScope: string;
  pixKey: string;
  payoutEfi: boolean;
  payoutPayerKey: string;
  hasClientSecret: boolean;
  certificate: "pem" | "pkcs12" | null;
  /** A password is stored for the certificate (a PKCS#12 bundle's, or an encrypted PEM key's). */
  hasCertificatePassword: boolean;
  hasCa: boolean;
  webhookUrl: string | null;
  webhookRegisteredAt: Date | null;
  updatedAt: Date | null;
};

export type ScopeMode = "default" | "none" | "custom";
const SCOPE_MODES: readonly ScopeMode[] = ["default", "none", "custom"];
/** Scope tokens (RFC 6749 §3.3: printable ASCII but space, quote and backslash), space-separated. */
const SCOPE_RE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

export function settingsView(row: PspConfigRow | null): PspSettingsView {
  return {
    processor: (row?.processor as PixProcessorName) ?? "sandbox",
    baseUrl: row?.baseUrl ?? "",
    tokenUrl: row?.tokenUrl ?? "",
    clientId: row?.clientId ?? "",
    clientAuth: (row?.clientAuth as ClientAuth | undefined) ?? "basic",
    scopeMode: row?.scope == null ? "default" : row.scope === "" ? "none" : "custom",
    scope: row?.scope ?? "",
    defaultScope: DEFAULT_API_PIX_SCOPE,
    efiScope: EFI_PIX_SEND_SCOPE,
    pixKey: row?.pixKey ?? "",
    payoutEfi: row?.payoutProvider === "efi",
    payoutPayerKey: row?.payoutPayerKey ?? "",
    hasClientSecret: Boolean(row?.clientSecretEnc),
    certificate: row?.pkcs12Enc ? "pkcs12" : row?.certPem && row.keyPemEnc ? "pem" : null,
    hasCertificatePassword: Boolean(row?.pkcs12PasswordEnc),
    hasCa: Boolean(row?.caPem),
    webhookUrl: row ? webhookUrlFor(row.webhookToken) : null,
    webhookRegisteredAt: row?.webhookRegisteredAt ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function getPspSettings(ctx: Pick<ServiceContext, "account">): Promise<PspSettingsView> {
  return settingsView(await pspConfigOf(ctx.account.id));
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1], pem: m[0] }));
}

const isPem = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4096)).toString("latin1").includes("-----BEGIN ");

function httpsUrl(raw: string | undefined, field: string, label: string, errors: FieldError[]): string | null {
  const v = (raw ?? "").trim();
  if (!v) {
    errors.push({ field, message: `Informe a ${label}.` });
    return null;
  }
  try {
    const u = new URL(v);
    if (u.protocol !== "https:") throw new Error();
    if (u.username || u.password) throw new Error();
    return v.replace(/\/+$/, "");
  } catch {
    errors.push({ field, message: `A ${label} deve ser uma URL https:// válida (sem usuário e senha).` });
    return null;
  }
}

export type SaveResult = { view: PspSettingsView; webhook: { registered: true } | { registered: false; message: string } | null };

export async function savePspSettings(ctx: ServiceContext, input: PspSettingsInput): Promise<SaveResult> {
  const processor = input.processor as PixProcessorName;
  if (!(PIX_PROCESSORS as readonly string[]).includes(processor)) {
    throw new ServiceError("validation_error", "Escolha o processador.", [{ field: "processor", message: "Escolha o processador." }]);
  }
  const existing = await pspConfigOf(ctx.account.id);
  const companyId = ctx.account.id;
  const now = ctx.now;

  if (processor !== API_PIX_PROCESSOR) {
    // Back to the sandbox: the credentials stay (charges made through the PSP are still followed).
    if (existing) {
      await getDb().update(accountPspConfigs).set({ processor, updatedAt: now }).where(eq(accountPspConfigs.id, existing.id));
    } else {
      await getDb().insert(accountPspConfigs).values({ companyId, processor, webhookToken: newWebhookToken(), createdAt: now, updatedAt: now });
    }
    return { view: settingsView(await pspConfigOf(companyId)), webhook: null };
  }

  const errors: FieldError[] = [];
  const baseUrl = httpsUrl(input.baseUrl, "baseUrl", "URL da API", errors);
  const tokenUrl = httpsUrl(input.tokenUrl, "tokenUrl", "URL do token", errors);
  const clientId = (input.clientId ?? "").trim();
  if (!clientId || clientId.length > 200) errors.push({ field: "clientId", message: "Informe o client id." });
  const clientAuth = (input.clientAuth || "basic") as ClientAuth;
  if (!CLIENT_AUTHS.includes(clientAuth)) errors.push({ field: "clientAuth", message: "Escolha como o cliente se autentica." });
  const clientSecret = input.clientSecret ?? "";
  const noSecret = clientAuth === "body" && input.noClientSecret === true;
  if (noSecret && clientSecret) errors.push({ field: "clientSecret", message: "Deixe o client secret em branco, ou desmarque “O PSP não emitiu client secret”." });
  if (clientAuth === "basic" && !clientSecret && !existing?.clientSecretEnc) {
    errors.push({ field: "clientSecret", message: "Informe o client secret (ou escolha “client_id no corpo”, se o PSP não emitiu um secret)." });
  }
  const scopeMode = (input.scopeMode || "default") as ScopeMode;
  let scope: string | null = null;
  if (!SCOPE_MODES.includes(scopeMode)) errors.push({ field: "scopeMode", message: "Escolha os escopos." });
  else if (scopeMode === "none") scope = "";
  else if (scopeMode === "custom") {
    scope = (input.scope ?? "").trim().split(/\s+/).filter(Boolean).join(" ");
    if (!scope || scope.length > 500 || !SCOPE_RE.test(scope)) {
      errors.push({ field: "scope", message: "Informe os escopos separados por espaço (ex.: cob.write cob.read pix.write pix.read webhook.write webhook.read)." });
    }
  }
  if (clientSecret.length > 1000) errors.push({ field: "clientSecret", message: "Client secret longo demais." });
  const key = parsePixKey((input.pixKey ?? "").trim());
  if (!key.ok) errors.push({ field: "pixKey", message: key.message });
  const payerKey = input.payoutEfi ? parsePixKey((input.payoutPayerKey ?? "").trim()) : null;
  if (payerKey && !payerKey.ok) errors.push({ field: "payoutPayerKey", message: `Chave pagadora na Efí: ${payerKey.message}` });

  // The certificate: a new upload replaces the stored one; none keeps it.
  const password = input.certificatePassword ?? "";
  let cert: Pick<PspConfigRow, "certPem" | "keyPemEnc" | "pkcs12Enc" | "pkcs12PasswordEnc"> | null = null;
  // What the check below loads: the upload, or the stored certificate when only its password changes.
  let material: CertificateMaterial | null = null;
  const upload = input.certificate && input.certificate.length > 0 ? input.certificate : null;
  if (upload) {
    if (upload.length > 64 * 1024) errors.push({ field: "certificate", message: "O arquivo do certificado é grande demais (máximo 64 KB)." });
    else if (isPem(upload)) {
      const blocks = pemBlocks(Buffer.from(upload).toString("utf8"));
      const keyFile = input.privateKey && input.privateKey.length > 0 ? pemBlocks(Buffer.from(input.privateKey).toString("utf8")) : [];
      const certs = blocks.filter((b) => b.label === "CERTIFICATE");
      const keyBlock = [...blocks, ...keyFile].find((b) => b.label.endsWith("PRIVATE KEY"));
      if (certs.length === 0) errors.push({ field: "certificate", message: "O arquivo não contém um certificado PEM (BEGIN CERTIFICATE)." });
      else if (!keyBlock) errors.push({ field: "privateKey", message: "Envie a chave privada do certificado (arquivo .key em PEM)." });
      else {
        const certPem = certs.map((c) => c.pem).join("\n") + "\n";
        material = { certPem, keyPem: keyBlock.pem + "\n", password };
        cert = {
          certPem,
          keyPemEnc: sealSecret(companyId, "keyPem", keyBlock.pem + "\n"),
          pkcs12Enc: null,
          pkcs12PasswordEnc: password ? sealSecret(companyId, "pkcs12Password", password) : null,
        };
      }
    } else {
      material = { pkcs12: Buffer.from(upload), password };
      cert = {
        certPem: null,
        keyPemEnc: null,
        pkcs12Enc: sealSecret(companyId, "pkcs12", Buffer.from(upload).toString("base64")),
        pkcs12PasswordEnc: password ? sealSecret(companyId, "pkcs12Password", password) : null,
      };
    }
  } else if (!existing?.pkcs12Enc && !(existing?.certPem && existing.keyPemEnc)) {
    errors.push({ field: "certificate", message: "Envie o certificado do cliente emitido pelo PSP (.pem/.crt com a chave, ou .p12/.pfx)." });
  } else if (password) {
    // A new password for the stored certificate: it must open it too.
    try {
      material = storedCertificateMaterial(existing, password);
    } catch {
      errors.push({ field: "certificate", message: "O certificado guardado não pôde ser lido (a chave de criptografia do servidor mudou?): envie-o de novo com a senha." });
    }
  }
  let caPem: string | null | undefined = undefined;
  if (input.caCertificate && input.caCertificate.length > 0) {
    const blocks = pemBlocks(Buffer.from(input.caCertificate).toString("utf8")).filter((b) => b.label === "CERTIFICATE");
    if (blocks.length === 0) errors.push({ field: "caCertificate", message: "O arquivo da CA deve conter certificados PEM." });
    else caPem = blocks.map((b) => b.pem).join("\n") + "\n";
  }
  // The check every call to the PSP makes (transport.ts), here for a readable error: no private
  // network addresses (unless allowed), and, unlike a webhook URL, a host that resolves now (a PSP's
  // API always does; a name registered to be pointed somewhere later is refused).
  for (const [field, url] of [["baseUrl", baseUrl], ["tokenUrl", tokenUrl]] as const) {
    if (!url) continue;
    const check = await checkUrlHost(new URL(url));
    if (check.ok) continue;
    errors.push({
      field,
      message: check.refused
        ? "Esta URL aponta para uma rede privada ou local, que não é permitida: a API de um PSP tem um endereço público."
        : "O endereço desta URL não foi encontrado (DNS): confira a URL.",
    });
  }
  if (errors.length) throw new ServiceError("validation_error", "Revise os campos destacados.", errors);

  // Does the certificate load (right password, key matching)? Checked before anything is stored, by
  // the function every client made from the stored settings goes through (clientConfigOf).
  if (material) {
    try {
      const certificate = clientCertificateFrom(material, new URL(baseUrl!).host);
      new ApiPixClient({ baseUrl: baseUrl!, tokenUrl: tokenUrl!, clientId, clientSecret: clientSecret || "x", clientAuth: "basic", certificate, caPem: caPem ?? existing?.caPem ?? undefined }).close();
    } catch (e) {
      if (e instanceof ApiPixError) throw new ServiceError("validation_error", e.message, [{ field: "certificate", message: e.message }]);
      throw e;
    }
  }

  const values = {
    processor,
    baseUrl,
    tokenUrl,
    clientId,
    clientAuth,
    scope,
    ...(noSecret ? { clientSecretEnc: null } : clientSecret ? { clientSecretEnc: sealSecret(companyId, "clientSecret", clientSecret) } : {}),
    ...(cert ?? {}),
    ...(!upload && password ? { pkcs12PasswordEnc: sealSecret(companyId, "pkcs12Password", password) } : {}),
    ...(caPem !== undefined ? { caPem } : {}),
    pixKey: key.ok ? key.key : null,
    payoutProvider: payerKey?.ok ? "efi" : null,
    payoutPayerKey: payerKey?.ok ? payerKey.key : null,
    updatedAt: now,
  };
  let row: PspConfigRow;
  if (existing) {
    [row] = await getDb().update(accountPspConfigs).set(values).where(eq(accountPspConfigs.id, existing.id)).returning();
  } else {
    [row] = await getDb()
      .insert(accountPspConfigs)
      .values({ ...values, companyId, webhookToken: newWebhookToken(), createdAt: now })
      .returning();
  }
  const webhook = await registerWebhook(row, now);
  return { view: settingsView(await pspConfigOf(companyId)), webhook };
}

/**
 * Why this server's webhook URL cannot be registered at a PSP, or null. PSPs post the Pix over TLS
 * only (Efí and others refuse an http:// URL with 400), so an http BASE_URL is not sent to them; it is
 * let through when WEBHOOK_ALLOW_PRIVATE_URLS allows private addresses (development and tests, where a
 * local PSP posts to a local app; the default outside production).
 */
export function webhookUrlProblem(url: string): string | null {
  if (url.startsWith("https://") || getEnv().webhookAllowPrivateUrls) return null;
  return `O endereço deste servidor (BASE_URL = ${new URL(url).origin}) não usa https: os PSPs só enviam os Pix recebidos a uma URL https:// e recusam esta. Configure BASE_URL com o endereço público https:// do Arara e salve de novo (the PSP's webhook needs an https:// BASE_URL).`;
}

/** `PUT /webhook/{chave}` with this account's URL; the outcome, readable. */
export async function registerWebhook(row: PspConfigRow, now: Date): Promise<SaveResult["webhook"]> {
  if (incompleteReason(row)) return { registered: false, message: incompleteReason(row)! };
  const url = webhookUrlFor(row.webhookToken);
  const problem = webhookUrlProblem(url);
  if (problem) return { registered: false, message: problem };
  try {
    await clientFor(row).putWebhook(row.pixKey!, url);
  } catch (e) {
    if (e instanceof ApiPixError) return { registered: false, message: e.message };
    throw e;
  }
  await getDb().update(accountPspConfigs).set({ webhookRegisteredAt: now, webhookUrl: url }).where(eq(accountPspConfigs.id, row.id));
  return { registered: true };
}

export type ConnectionTest =
  | { ok: true; webhookUrl: string | null; webhookMatches: boolean; expectedWebhookUrl: string }
  | { ok: false; code: string; message: string };

/** "Testar conexão": a fresh token and a read of the webhook registered for the key. */
export async function testPspConnection(ctx: Pick<ServiceContext, "account">): Promise<ConnectionTest> {
  const row = await pspConfigOf(ctx.account.id);
  if (!row) return { ok: false, code: "not_configured", message: "Salve a configuração do PSP antes de testar." };
  const reason = incompleteReason(row);
  if (reason) return { ok: false, code: "incomplete", message: reason };
  // A client of its own: the test must not reuse a cached token or connection.
  let client: ApiPixClient | null = null;
  try {
    client = new ApiPixClient(clientConfigOf(row));
    const { webhook } = await client.testConnection(row.pixKey!);
    const expected = webhookUrlFor(row.webhookToken);
    return { ok: true, webhookUrl: webhook?.webhookUrl ?? null, webhookMatches: sameWebhookUrl(webhook?.webhookUrl, expected), expectedWebhookUrl: expected };
  } catch (e) {
    if (e instanceof ApiPixError) return { ok: false, code: e.code, message: e.message };
    getLogger().error({ component: "api-pix", account: ctx.account.id, err: e instanceof Error ? e.name : "error" }, "api-pix connection test failed");
    return { ok: false, code: "internal", message: "Não foi possível testar a conexão (erro interno)." };
  } finally {
    client?.close();
  }
}

/** The registered URL read back: PSPs may add a trailing slash or write the host in capitals. */
function sameWebhookUrl(registered: string | undefined, expected: string): boolean {
  if (!registered) return false;
  try {
    const a = new URL(registered);
    const b = new URL(expected);
    return a.origin === b.origin && a.pathname.replace(/\/+$/, "") === b.pathname.replace(/\/+$/, "") && a.search === b.search;
  } catch {
    return false;
  }
}

function newWebhookToken(): string {
  return randomBytes(32).toString("base64url");
}
