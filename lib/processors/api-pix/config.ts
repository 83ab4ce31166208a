/**
 * The per-account API Pix configuration (table account_psp_configs): reading it, decrypting its
 * secrets into a client configuration, and one ApiPixClient per configuration version, kept for the
 * life of the process (its token cache and kept-alive connections are what make it cheap).
 *
 * Secrets are encrypted with a key derived from the key-encryption secret for this purpose, bound to
 * the account and the field (AAD): a box copied to another account or field does not decrypt.
 */
import { eq, sql } from "drizzle-orm";
import { decrypt, derivedKey, encrypt } from "@/lib/crypto";
import { getDb, type Db, type Queryable } from "@/lib/db/client";
import { preparedOn } from "@/lib/db/prepared";
import { accountPspConfigs } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { API_PIX_ACQUIRER } from "@/lib/core/transaction-resource";
import { ApiPixClient, type ApiPixClientConfig } from "./client";
import { DEFAULT_API_PIX_SCOPE, EFI_PIX_SEND_SCOPE, type ClientAuth } from "./oauth-session";
import { clientCertificateFrom, type CertificateMaterial } from "./certificate";

export type PspConfigRow = typeof accountPspConfigs.$inferSelect;

export const API_PIX_PROCESSOR = API_PIX_ACQUIRER;
export const SANDBOX_PROCESSOR = "sandbox";
export const PIX_PROCESSORS = [SANDBOX_PROCESSOR, API_PIX_PROCESSOR] as const;
export type PixProcessorName = (typeof PIX_PROCESSORS)[number];

export type SecretField = "clientSecret" | "keyPem" | "pkcs12" | "pkcs12Password";

const secretKey = () => derivedKey("psp-config-secrets");
const aad = (companyId: number, field: SecretField) => `account_psp_configs:${companyId}:${field}`;

export function sealSecret(companyId: number, field: SecretField, plain: string): string {
  return encrypt(plain, secretKey(), aad(companyId, field));
}

export function openSecret(companyId: number, field: SecretField, box: string | null): string | null {
  if (box === null) return null;
  return decrypt(box, secretKey(), aad(companyId, field));
}

// Every cash-out request asks it: prepared once per database handle (outside a caller's transaction).
const preparePspConfig = (db: Db) =>
  db.select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, sql.placeholder("companyId"))).prepare("psp_config_of");

export async function pspConfigOf(companyId: number, q: Queryable = getDb()): Promise<PspConfigRow | null> {
  const [row] =
    q === getDb()
      ? await preparedOn(q as Db, "psp_config_of", preparePspConfig).execute({ companyId })
      : await q.select().from(accountPspConfigs).where(eq(accountPspConfigs.companyId, companyId));
  return row ?? null;
}

export async function pspConfigByWebhookToken(token: string, q: Queryable = getDb()): Promise<PspConfigRow | null> {
  // Tokens are 43 base64url characters; anything else is not ours (and skips the query).
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await q.select().from(accountPspConfigs).where(eq(accountPspConfigs.webhookToken, token));
  return row ?? null;
}

/** The URL registered at the PSP with `PUT /webhook/{chave}`; the PSP posts to it with `/pix` appended. */
export function webhookUrlFor(token: string): string {
  return `${getEnv().baseUrl.replace(/\/+$/, "")}/api/v1/psp/api-pix/${token}`;
}

/** Why a configuration cannot make a client yet (missing fields), or null when complete. */
export function incompleteReason(row: PspConfigRow): string | null {
  const missing: string[] = [];
  if (!row.baseUrl) missing.push("URL da API");
  if (!row.tokenUrl) missing.push("URL do token");
  if (!row.clientId) missing.push("client id");
  if (!row.clientSecretEnc && row.clientAuth !== "body") missing.push("client secret");
  if (!row.pkcs12Enc && !(row.certPem && row.keyPemEnc)) missing.push("certificado");
  if (!row.pixKey) missing.push("chave PIX");
  return missing.length ? `Configuração incompleta: falta ${missing.join(", ")}.` : null;
}

/** Decrypts one of the row's secrets; throws when it does not decrypt. */
function openOf(row: PspConfigRow) {
  return (field: SecretField, box: string | null) => {
    const v = openSecret(row.companyId, field, box);
    if (v === null) throw new Error(`The PSP configuration of account ${row.companyId} cannot be decrypted (${field}): was KEY_ENCRYPTION_SECRET changed?`);
    return v;
  };
}

/**
 * The stored client certificate, decrypted (in memory only), with its stored password, or with
 * `password` instead (a new password saved for the stored certificate). Null when none is stored.
 */
export function storedCertificateMaterial(row: PspConfigRow, password?: string): CertificateMaterial | null {
  const open = openOf(row);
  const pass = password ?? (row.pkcs12PasswordEnc ? open("pkcs12Password", row.pkcs12PasswordEnc) : undefined);
  if (row.pkcs12Enc) return { pkcs12: Buffer.from(open("pkcs12", row.pkcs12Enc), "base64"), password: pass };
  if (row.certPem && row.keyPemEnc) return { certPem: row.certPem, keyPem: open("keyPem", row.keyPemEnc), password: pass };
  return null;
}

/**
 * The `scope` asked in the token request: the stored one ("" asks none), or by default the API Pix
 * operations' scopes, with Efí's Pix Envio scopes when cash-outs go through Efí.
 */
export function scopeOf(row: Pick<PspConfigRow, "scope" | "payoutProvider">): string {
  if (row.scope !== null) return row.scope;
  return row.payoutProvider === "efi" ? `${DEFAULT_API_PIX_SCOPE} ${EFI_PIX_SEND_SCOPE}` : DEFAULT_API_PIX_SCOPE;
}

const hostOf = (url: string | null) => {
  try {
    return url ? new URL(url).host : "";
  } catch {
    return "";
  }
};

/**
 * The client configuration, secrets decrypted (in memory only). Throws when incomplete or
 * undecryptable, and ApiPixError `client_certificate_invalid` when the certificate does not load
 * (the same check "Salvar" makes: `clientCertificateFrom`).
 */
export function clientConfigOf(row: PspConfigRow): ApiPixClientConfig {
  const reason = incompleteReason(row);
  if (reason) throw new Error(reason);
  const open = openOf(row);
  const certificate = clientCertificateFrom(storedCertificateMaterial(row)!, hostOf(row.baseUrl));
  return {
    baseUrl: row.baseUrl!,
    tokenUrl: row.tokenUrl!,
    clientId: row.clientId!,
    clientSecret: row.clientSecretEnc ? open("clientSecret", row.clientSecretEnc) : undefined,
    clientAuth: row.clientAuth as ClientAuth,
    scope: scopeOf(row),
    certificate,
    caPem: row.caPem ?? undefined,
    logger: getLogger().child({ component: "api-pix", account: row.companyId }),
  };
}

const g = globalThis as unknown as { __araraApiPixClients?: Map<number, { version: number; client: ApiPixClient }> };

/** The client of this configuration version (a saved change makes a new one; the old one is closed). */
export function clientFor(row: PspConfigRow): ApiPixClient {
  const cache = (g.__araraApiPixClients ??= new Map());
  const version = row.updatedAt.getTime();
  const hit = cache.get(row.id);
  if (hit && hit.version === version) return hit.client;
  hit?.client.close();
  const client = new ApiPixClient(clientConfigOf(row));
  cache.set(row.id, { version, client });
  return client;
}

/** Drops every cached client (tests; a process shutting down). */
export function closeApiPixClients(): void {
  const cache = g.__araraApiPixClients;
  if (!cache) return;
  for (const { client } of cache.values()) client.close();
  cache.clear();
}
