/**
 * The OAuth2 client-credentials session over mutual TLS that every call to a PSP rides on (API Pix,
 * and Efí's Pix Envio with the same credentials): the https.Agent with the client certificate, the
 * cached access token (renewed shortly before it expires; concurrent calls share one token request),
 * and what must never reach a log line or an error (client secret, key, passwords, tokens).
 */
import type https from "node:https";
import type { z } from "zod";
import { getLogger } from "@/lib/logger";
import type { Resolver } from "@/lib/webhooks/ssrf";
import { ApiPixError, MESSAGES, redact } from "./errors";
import { oauthErrorSchema, tokenResponseSchema } from "./schemas";
import { createMtlsAgent, send, type ClientCertificate, type RawResponse } from "./transport";

export type ApiPixLogger = {
  debug: (obj: Record<string, unknown>, msg: string) => void;
  info: (obj: Record<string, unknown>, msg: string) => void;
  warn: (obj: Record<string, unknown>, msg: string) => void;
};

export type ApiPixClientConfig = {
  /** The API's base, operations are appended to it: "https://pix.example.com/api/v2" + "/cob/{txid}". */
  baseUrl: string;
  /** The OAuth2 token endpoint: "https://pix.example.com/oauth/token". */
  tokenUrl: string;
  clientId: string;
  /** Required with "basic" client authentication; optional with "body" (a certificate-bound id). */
  clientSecret?: string;
  /**
   * How the token request authenticates the client: "basic" (the default: HTTP Basic, RFC 6749's
   * client_secret_basic) or "body" (`client_id`, and `client_secret` when given, in the form; the id
   * then also goes as a `client_id` header on every API call, as Sicoob asks).
   */
  clientAuth?: ClientAuth;
  /** The client certificate issued by the PSP: PEM certificate and key, or a PKCS#12 bundle. */
  certificate: ClientCertificate;
  /** The CA of the PSP's server certificate, when it is not one the system trusts. */
  caPem?: string;
  /**
   * Sent as `scope` in the token request. Undefined: DEFAULT_API_PIX_SCOPE (the scopes the API Pix
   * operations Arara calls require; PSPs that grant only what is asked refuse every call without
   * them). "": no `scope` (the PSP grants the application's own).
   */
  scope?: string;
  /** Deadline of each HTTP exchange, connection included. Default 15 s. */
  timeoutMs?: number;
  logger?: ApiPixLogger;
  /** Clock for the token's expiry (ms since the epoch). */
  now?: () => number;
  /** Tests: the DNS resolver of the address check every call makes (transport.ts); the system's by default. */
  resolver?: Resolver;
};

export type ClientAuth = "basic" | "body";
export const CLIENT_AUTHS: readonly ClientAuth[] = ["basic", "body"];

/**
 * The scopes of the API Pix operations Arara calls (Banco Central's API Pix, each operation's
 * `security: OAuth2: [...]`): PUT/GET /cob, GET /pix, PUT/GET devolução, PUT/GET /webhook.
 */
export const DEFAULT_API_PIX_SCOPE = "cob.write cob.read pix.write pix.read webhook.write webhook.read";
/** Efí's Pix Envio (cash-outs): send a Pix, read one sent. */
export const EFI_PIX_SEND_SCOPE = "pix.send gn.pix.send.read";

const DEFAULT_TIMEOUT_MS = 15_000;
/** The operation named by errors of the token endpoint (no request to the API was made). */
export const TOKEN_OPERATION = "POST token";
/**
 * The lifetime assumed of a token whose answer has no `expires_in` (only RECOMMENDED by RFC 6749
 * 5.1): short, so that a token the PSP makes shorter-lived is not used long past its end (a 401
 * renews it anyway, at the cost of a call).
 */
export const DEFAULT_TOKEN_LIFETIME_S = 300;
/** A token is renewed this long before it expires: a tenth of its life, at most a minute. */
const refreshMargin = (lifetimeMs: number) => Math.min(60_000, Math.floor(lifetimeMs / 10));


export function httpsUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configError(`${what} não é uma URL válida.`);
  }
  if (url.protocol !== "https:") throw configError(`${what} deve começar com https:// (a API Pix exige TLS mútuo).`);
  if (url.username || url.password) throw configError(`${what} não pode conter usuário e senha.`);
  return url;
}

export function configError(message: string): ApiPixError {
  return new ApiPixError({ code: "invalid_request", message, operation: "configure", host: "-" });
}

export function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(corpo)"}: ${i.message}`)
    .join("; ");
}

export class OAuthSession {
  protected readonly base: URL;
  protected readonly tokenUrl: URL;
  protected readonly host: string;
  protected readonly agent: https.Agent;
  protected readonly timeoutMs: number;
  protected readonly resolver?: Resolver;
  protected readonly now: () => number;
  protected readonly log: ApiPixLogger;
  /** The Authorization header's value of a "basic" token request; null with "body" auth. */
  protected readonly basicAuth: string | null;
  protected readonly clientAuth: ClientAuth;
  protected readonly clientId: string;
  protected readonly clientSecret: string | null;
  protected readonly scope: string;
  /** What must never appear in an error or a log line: client secret, its Basic form, key, passwords. */
  protected readonly fixedSecrets: string[];
  /** The last access tokens issued, for the same purpose. */
  protected recentTokens: string[] = [];
  protected token: { value: string; expiresAt: number } | null = null;
  protected tokenInFlight: Promise<string> | null = null;

  constructor(config: ApiPixClientConfig) {
    this.base = httpsUrl(config.baseUrl.replace(/\/+$/, ""), "A URL da API Pix");
    this.tokenUrl = httpsUrl(config.tokenUrl, "A URL do token");
    this.host = this.base.host;
    this.clientAuth = config.clientAuth ?? "basic";
    if (!CLIENT_AUTHS.includes(this.clientAuth)) throw configError("Forma de autenticação do cliente desconhecida.");
    if (!config.clientId) throw configError("Informe o client id.");
    if (this.clientAuth === "basic" && !config.clientSecret) throw configError("Informe o client secret (ou escolha a autenticação no corpo, sem secret).");
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.resolver = config.resolver;
    this.now = config.now ?? Date.now;
    this.log = config.logger ?? getLogger().child({ component: "api-pix" });
    this.scope = (config.scope ?? DEFAULT_API_PIX_SCOPE).trim();
    this.clientId = config.clientId;
    this.clientSecret = config.clientSecret || null;
    this.basicAuth =
      this.clientAuth === "basic" ? Buffer.from(`${config.clientId}:${config.clientSecret}`, "utf8").toString("base64") : null;
    const c = config.certificate;
    this.fixedSecrets = [this.clientSecret, this.basicAuth].filter((v): v is string => Boolean(v));
    if ("pfx" in c) {
      if (c.passphrase) this.fixedSecrets.push(c.passphrase);
    } else {
      // The key as a whole and each of its base64 lines.
      this.fixedSecrets.push(c.keyPem.trim(), ...c.keyPem.split(/\r?\n/).filter((l) => l.length >= 16 && !l.startsWith("-----")));
      if (c.keyPassphrase) this.fixedSecrets.push(c.keyPassphrase);
    }
    this.agent = createMtlsAgent({ certificate: c, caPem: config.caPem }, this.host);
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
  // ---- token ---------------------------------------------------------------------------------------

  protected async accessToken(): Promise<string> {
    const t = this.token;
    if (t && this.now() < t.expiresAt) return t.value;
    if (!this.tokenInFlight) {
      this.tokenInFlight = this.fetchToken().finally(() => {
        this.tokenInFlight = null;
      });
    }
    return this.tokenInFlight;
  }

  protected async fetchToken(): Promise<string> {
    const operation = TOKEN_OPERATION;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.scope) form.set("scope", this.scope);
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (this.basicAuth) headers.authorization = `Basic ${this.basicAuth}`;
    else {
      form.set("client_id", this.clientId);
      if (this.clientSecret) form.set("client_secret", this.clientSecret);
    }
    const started = this.now();
    let res: RawResponse;
    try {
      res = await send(this.agent, {
        method: "POST",
        url: this.tokenUrl,
        headers,
        body: form.toString(),
        timeoutMs: this.timeoutMs,
        operation,
        host: this.tokenUrl.host,
        resolver: this.resolver,
      });
    } catch (e) {
      throw this.logged(e);
    }
    if (res.status === 200) {
      const parsed = tokenResponseSchema.safeParse(this.json(res));
      if (!parsed.success) throw this.logged(this.invalidResponse(operation, issuesText(parsed.error)));
      const value = parsed.data.access_token;
      if (!/^[\x21-\x7e]+$/.test(value)) throw this.logged(this.invalidResponse(operation, "access_token com caracteres inválidos"));
      this.rememberSecret(value);
      const expiresIn = parsed.data.expires_in ?? DEFAULT_TOKEN_LIFETIME_S;
      const lifetime = Math.floor(expiresIn * 1000);
      this.token = { value, expiresAt: started + lifetime - refreshMargin(lifetime) };
      this.log.debug({ host: this.tokenUrl.host, expiresIn, assumed: parsed.data.expires_in === undefined }, "api-pix access token issued");
      return value;
    }
    const host = this.tokenUrl.host;
    if (res.status >= 500 || res.status === 408 || res.status === 425 || res.status === 429) {
      throw this.logged(new ApiPixError({ code: "psp_unavailable", message: MESSAGES.pspUnavailable(host, operation, res.status), operation, host, httpStatus: res.status }));
    }
    const oauth = oauthErrorSchema.safeParse(this.json(res));
    const oauthCode = oauth.success && /^[a-z_]{1,40}$/.test(oauth.data.error) ? oauth.data.error : undefined;
    if (oauthCode === "invalid_scope") {
      throw this.logged(
        new ApiPixError({ code: "access_denied", message: redact(MESSAGES.invalidScope(host, this.scope), this.secrets), operation, host, httpStatus: res.status, causeCode: oauthCode }),
      );
    }
    if (res.status === 401 || (res.status === 400 && ["invalid_client", "unauthorized_client", "invalid_grant"].includes(oauthCode ?? ""))) {
      throw this.logged(
        new ApiPixError({ code: "invalid_client_credentials", message: MESSAGES.invalidClientCredentials(host, oauthCode), operation, host, httpStatus: res.status, causeCode: oauthCode }),
      );
    }
    throw this.logged(
      new ApiPixError({ code: "psp_rejected", message: MESSAGES.pspRejected(operation, res.status, oauthCode), operation, host, httpStatus: res.status, causeCode: oauthCode }),
    );
  }

  protected rememberSecret(token: string) {
    this.recentTokens = [...this.recentTokens.slice(-7), token];
  }

  protected get secrets(): string[] {
    return [...this.fixedSecrets, ...this.recentTokens];
  }
  protected json(res: RawResponse): unknown {
    if (res.body.trim() === "") return undefined;
    try {
      return JSON.parse(res.body);
    } catch {
      return undefined;
    }
  }

  protected invalidResponse(operation: string, what: string): ApiPixError {
    return new ApiPixError({ code: "invalid_response", message: redact(MESSAGES.invalidResponse(operation, what), this.secrets), operation, host: this.host });
  }

  /** Logs an ApiPixError once (code, operation, status: never a body or a header) and returns it. */
  protected logged(e: unknown): unknown {
    if (e instanceof ApiPixError) {
      const marked = e as ApiPixError & { __logged?: boolean };
      if (!marked.__logged) {
        Object.defineProperty(marked, "__logged", { value: true, enumerable: false });
        this.log.warn({ operation: e.operation, code: e.code, httpStatus: e.httpStatus, causeCode: e.causeCode }, "api-pix call failed");
      }
      return e;
    }
    return e;
  }
}
