/**
 * A client of a PSP's API Pix (Banco Central's standard, release 2.8.x): OAuth2 client credentials
 * over mutual TLS, then the operations Arara needs, each answer checked against the spec's schemas.
 *
 * - One client per PSP configuration (account); it owns an https.Agent with the client certificate
 *   and a cached access token, used until shortly before it expires. Concurrent calls share one
 *   token request. A 401 from the API drops the token and the call is tried once more with a new one.
 * - No other retries: a 5xx or a timeout comes back as an ApiPixError with `retryable` set, for the
 *   caller (or the reconciliation loop) to decide. Every operation used here is idempotent at the PSP
 *   (PUT with the caller's ids, or GET), so trying again later is safe.
 * - Secrets (client secret, tokens, key, PKCS#12 password) never reach a log line or an error.
 */
import type https from "node:https";
import type { z } from "zod";
import { getLogger } from "@/lib/logger";
import { ApiPixError, describeProblem, MESSAGES, redact, redactProblem } from "./errors";
import { pixCopiaEColaProblem } from "./helpers";
import {
  API_PIX_SCOPES,
  chaveSchema,
  cobCompletaSchema,
  cobGeradaSchema,
  cobSolicitadaSchema,
  devolucaoIdSchema,
  devolucaoSchema,
  devolucaoSolicitadaSchema,
  e2eidSchema,
  oauthErrorSchema,
  pixConsultadosSchema,
  pixConsultaQuerySchema,
  pixSchema,
  problemaSchema,
  tokenResponseSchema,
  txidSchema,
  webhookCompletoSchema,
  webhookSolicitadoSchema,
  type CobCompleta,
  type CobGerada,
  type CobSolicitada,
  type Devolucao,
  type DevolucaoSolicitada,
  type Pix,
  type PixConsultados,
  type Problema,
  type WebhookCompleto,
} from "./schemas";
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
  clientSecret: string;
  /** The client certificate issued by the PSP: PEM certificate and key, or a PKCS#12 bundle. */
  certificate: ClientCertificate;
  /** The CA of the PSP's server certificate, when it is not one the system trusts. */
  caPem?: string;
  /** Sent as `scope` in the token request; by default none (the PSP grants the application's scopes). */
  scope?: string;
  /** Deadline of each HTTP exchange, connection included. Default 15 s. */
  timeoutMs?: number;
  logger?: ApiPixLogger;
  /** Clock for the token's expiry (ms since the epoch). */
  now?: () => number;
};

export type PixListQuery = {
  inicio: Date | string;
  fim: Date | string;
  txid?: string;
  txIdPresente?: boolean;
  devolucaoPresente?: boolean;
  cpf?: string;
  cnpj?: string;
  paginaAtual?: number;
  itensPorPagina?: number;
};

export { API_PIX_SCOPES };

const DEFAULT_TIMEOUT_MS = 15_000;
/** A token is renewed this long before it expires: a tenth of its life, at most a minute. */
const refreshMargin = (lifetimeMs: number) => Math.min(60_000, Math.floor(lifetimeMs / 10));

type Operation<S extends z.ZodType | null> = {
  method: "GET" | "PUT";
  /** "/cob/{txid}": names the operation in errors and logs. */
  template: string;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  schema: S;
};

function httpsUrl(value: string, what: string): URL {
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

function configError(message: string): ApiPixError {
  return new ApiPixError({ code: "invalid_request", message, operation: "configure", host: "-" });
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(corpo)"}: ${i.message}`)
    .join("; ");
}

const rfc3339 = (d: Date | string) => (d instanceof Date ? d.toISOString() : d);

export class ApiPixClient {
  private readonly base: URL;
  private readonly tokenUrl: URL;
  private readonly host: string;
  private readonly agent: https.Agent;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly log: ApiPixLogger;
  private readonly basicAuth: string;
  private readonly scope?: string;
  /** What must never appear in an error or a log line: client secret, its Basic form, key, passwords. */
  private readonly fixedSecrets: string[];
  /** The last access tokens issued, for the same purpose. */
  private recentTokens: string[] = [];
  private token: { value: string; expiresAt: number } | null = null;
  private tokenInFlight: Promise<string> | null = null;

  constructor(config: ApiPixClientConfig) {
    this.base = httpsUrl(config.baseUrl.replace(/\/+$/, ""), "A URL da API Pix");
    this.tokenUrl = httpsUrl(config.tokenUrl, "A URL do token");
    this.host = this.base.host;
    if (!config.clientId || !config.clientSecret) throw configError("Informe o client id e o client secret.");
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = config.now ?? Date.now;
    this.log = config.logger ?? getLogger().child({ component: "api-pix" });
    this.scope = config.scope;
    this.basicAuth = Buffer.from(`${config.clientId}:${config.clientSecret}`, "utf8").toString("base64");
    const c = config.certificate;
    this.fixedSecrets = [config.clientSecret, this.basicAuth];
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

  // ---- operations ----------------------------------------------------------------------------------

  /**
   * `PUT /cob/{txid}`: creates the immediate charge (or revises it while ATIVA; the same body again
   * changes nothing, so a call that timed out can be repeated with the same txid). The BR Code
   * (`pixCopiaECola`) is checked when the PSP returns one; it is optional in the spec, and without
   * it the dynamic BR Code is built from `location`.
   */
  async createCob(txid: string, body: CobSolicitada): Promise<CobGerada> {
    const op = "PUT /cob/{txid}";
    this.checkInput(op, txidSchema, txid, "txid");
    this.checkInput(op, cobSolicitadaSchema, body, "corpo");
    const cob = await this.call({ method: "PUT", template: "/cob/{txid}", path: `/cob/${txid}`, body, schema: cobGeradaSchema });
    if (cob.txid !== txid) throw this.invalidResponse(op, "txid da resposta difere do pedido");
    if (cob.pixCopiaECola !== undefined) {
      const problem = pixCopiaEColaProblem(cob);
      if (problem) throw this.invalidResponse(op, problem);
    }
    return cob;
  }

  /** `GET /cob/{txid}`: the charge with the Pix received for it. */
  async getCob(txid: string): Promise<CobCompleta> {
    this.checkInput("GET /cob/{txid}", txidSchema, txid, "txid");
    const cob = await this.call({ method: "GET", template: "/cob/{txid}", path: `/cob/${txid}`, schema: cobCompletaSchema });
    if (cob.txid !== txid) throw this.invalidResponse("GET /cob/{txid}", "txid da resposta difere do pedido");
    return cob;
  }

  /** `GET /pix/{e2eid}`. */
  async getPix(e2eid: string): Promise<Pix> {
    this.checkInput("GET /pix/{e2eid}", e2eidSchema, e2eid, "e2eid");
    const pix = await this.call({ method: "GET", template: "/pix/{e2eid}", path: `/pix/${e2eid}`, schema: pixSchema });
    if (pix.endToEndId !== e2eid) throw this.invalidResponse("GET /pix/{e2eid}", "endToEndId da resposta difere do pedido");
    return pix;
  }

  /** `GET /pix?inicio=&fim=`: one page of the Pix received in the period. */
  async listPix(query: PixListQuery): Promise<PixConsultados> {
    const params: Record<string, string> = { inicio: rfc3339(query.inicio), fim: rfc3339(query.fim) };
    if (query.txid !== undefined) params.txid = query.txid;
    if (query.txIdPresente !== undefined) params.txIdPresente = String(query.txIdPresente);
    if (query.devolucaoPresente !== undefined) params.devolucaoPresente = String(query.devolucaoPresente);
    if (query.cpf !== undefined) params.cpf = query.cpf;
    if (query.cnpj !== undefined) params.cnpj = query.cnpj;
    if (query.paginaAtual !== undefined) params["paginacao.paginaAtual"] = String(query.paginaAtual);
    if (query.itensPorPagina !== undefined) params["paginacao.itensPorPagina"] = String(query.itensPorPagina);
    this.checkInput("GET /pix", pixConsultaQuerySchema, params, "consulta");
    return this.call({ method: "GET", template: "/pix", path: "/pix", query: new URLSearchParams(params), schema: pixConsultadosSchema });
  }

  /** Every page of `GET /pix` for the period, in the PSP's order (at most `maxPages` pages). */
  async listAllPix(query: Omit<PixListQuery, "paginaAtual">, maxPages = 100): Promise<Pix[]> {
    const out: Pix[] = [];
    for (let page = 0; page < maxPages; page++) {
      const result = await this.listPix({ ...query, paginaAtual: page });
      out.push(...result.pix);
      const pages = result.parametros.paginacao.quantidadeDePaginas;
      if (page + 1 >= pages || result.pix.length === 0) return out;
    }
    throw this.invalidResponse("GET /pix", `mais de ${maxPages} páginas`);
  }

  /** `PUT /pix/{e2eid}/devolucao/{id}`: asks for a refund; `id` is ours and makes the request idempotent. */
  async requestDevolucao(e2eid: string, id: string, body: DevolucaoSolicitada): Promise<Devolucao> {
    const op = "PUT /pix/{e2eid}/devolucao/{id}";
    this.checkInput(op, e2eidSchema, e2eid, "e2eid");
    this.checkInput(op, devolucaoIdSchema, id, "id");
    this.checkInput(op, devolucaoSolicitadaSchema, body, "corpo");
    const dev = await this.call({ method: "PUT", template: "/pix/{e2eid}/devolucao/{id}", path: `/pix/${e2eid}/devolucao/${id}`, body, schema: devolucaoSchema });
    if (dev.id !== id) throw this.invalidResponse(op, "id da devolução difere do pedido");
    return dev;
  }

  /** `GET /pix/{e2eid}/devolucao/{id}`. */
  async getDevolucao(e2eid: string, id: string): Promise<Devolucao> {
    const op = "GET /pix/{e2eid}/devolucao/{id}";
    this.checkInput(op, e2eidSchema, e2eid, "e2eid");
    this.checkInput(op, devolucaoIdSchema, id, "id");
    const dev = await this.call({ method: "GET", template: "/pix/{e2eid}/devolucao/{id}", path: `/pix/${e2eid}/devolucao/${id}`, schema: devolucaoSchema });
    if (dev.id !== id) throw this.invalidResponse(op, "id da devolução difere do pedido");
    return dev;
  }

  /** `PUT /webhook/{chave}`: the PSP will post the Pix received for this key to `{webhookUrl}/pix`. */
  async putWebhook(chave: string, webhookUrl: string): Promise<void> {
    const op = "PUT /webhook/{chave}";
    this.checkInput(op, chaveSchema, chave, "chave");
    const body = { webhookUrl };
    this.checkInput(op, webhookSolicitadoSchema, body, "corpo");
    await this.call({ method: "PUT", template: "/webhook/{chave}", path: `/webhook/${encodeURIComponent(chave)}`, body, schema: null });
  }

  /** `GET /webhook/{chave}`. */
  async getWebhook(chave: string): Promise<WebhookCompleto> {
    this.checkInput("GET /webhook/{chave}", chaveSchema, chave, "chave");
    return this.call({ method: "GET", template: "/webhook/{chave}", path: `/webhook/${encodeURIComponent(chave)}`, schema: webhookCompletoSchema });
  }

  /**
   * What "Testar conexão" does: a fresh token (client certificate, id and secret) and a read of the
   * webhook registered for the key (null when there is none yet). Throws the ApiPixError met.
   */
  async testConnection(chave: string): Promise<{ webhook: WebhookCompleto | null }> {
    this.token = null;
    await this.accessToken();
    try {
      return { webhook: await this.getWebhook(chave) };
    } catch (e) {
      if (e instanceof ApiPixError && e.code === "not_found") return { webhook: null };
      throw e;
    }
  }

  // ---- token ---------------------------------------------------------------------------------------

  private async accessToken(): Promise<string> {
    const t = this.token;
    if (t && this.now() < t.expiresAt) return t.value;
    if (!this.tokenInFlight) {
      this.tokenInFlight = this.fetchToken().finally(() => {
        this.tokenInFlight = null;
      });
    }
    return this.tokenInFlight;
  }

  private async fetchToken(): Promise<string> {
    const operation = "POST token";
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.scope) form.set("scope", this.scope);
    const started = this.now();
    let res: RawResponse;
    try {
      res = await send(this.agent, {
        method: "POST",
        url: this.tokenUrl,
        headers: {
          authorization: `Basic ${this.basicAuth}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: form.toString(),
        timeoutMs: this.timeoutMs,
        operation,
        host: this.tokenUrl.host,
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
      const lifetime = parsed.data.expires_in * 1000;
      this.token = { value, expiresAt: started + lifetime - refreshMargin(lifetime) };
      this.log.debug({ host: this.tokenUrl.host, expiresIn: parsed.data.expires_in }, "api-pix access token issued");
      return value;
    }
    const host = this.tokenUrl.host;
    if (res.status >= 500) {
      throw this.logged(new ApiPixError({ code: "psp_unavailable", message: MESSAGES.pspUnavailable(host, operation, res.status), operation, host, httpStatus: res.status }));
    }
    const oauth = oauthErrorSchema.safeParse(this.json(res));
    const oauthCode = oauth.success && /^[a-z_]{1,40}$/.test(oauth.data.error) ? oauth.data.error : undefined;
    if (res.status === 401 || (res.status === 400 && ["invalid_client", "unauthorized_client", "invalid_grant"].includes(oauthCode ?? ""))) {
      throw this.logged(
        new ApiPixError({ code: "invalid_client_credentials", message: MESSAGES.invalidClientCredentials(host, oauthCode), operation, host, httpStatus: res.status, causeCode: oauthCode }),
      );
    }
    throw this.logged(
      new ApiPixError({ code: "psp_rejected", message: MESSAGES.pspRejected(operation, res.status, oauthCode), operation, host, httpStatus: res.status, causeCode: oauthCode }),
    );
  }

  private rememberSecret(token: string) {
    this.recentTokens = [...this.recentTokens.slice(-7), token];
  }

  private get secrets(): string[] {
    return [...this.fixedSecrets, ...this.recentTokens];
  }

  // ---- plumbing ------------------------------------------------------------------------------------

  private async call<S extends z.ZodType>(op: Operation<S>): Promise<z.infer<S>>;
  private async call(op: Operation<null>): Promise<undefined>;
  private async call(op: Operation<z.ZodType | null>): Promise<unknown> {
    const operation = `${op.method} ${op.template}`;
    const url = new URL(this.base.href.replace(/\/+$/, "") + op.path);
    if (op.query) url.search = op.query.toString();
    const body = op.body === undefined ? undefined : JSON.stringify(op.body);
    try {
      for (let attempt = 1; ; attempt++) {
        const token = await this.accessToken();
        const started = this.now();
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await send(this.agent, { method: op.method, url, headers, body, timeoutMs: this.timeoutMs, operation, host: this.host });
        this.log.debug({ operation, status: res.status, ms: this.now() - started }, "api-pix call");
        if (res.status === 401 && attempt === 1) {
          this.log.warn({ operation }, "api-pix token refused (401): retrying once with a new token");
          if (this.token?.value === token) this.token = null;
          continue;
        }
        return this.handle(op, operation, res);
      }
    } catch (e) {
      throw this.logged(e);
    }
  }

  private handle(op: Operation<z.ZodType | null>, operation: string, res: RawResponse): unknown {
    const s = res.status;
    if (s >= 200 && s < 300) {
      if (op.schema === null) return undefined;
      const json = this.json(res);
      if (json === undefined) throw this.invalidResponse(operation, `resposta ${s} sem JSON`);
      const parsed = op.schema.safeParse(json);
      if (!parsed.success) throw this.invalidResponse(operation, issuesText(parsed.error));
      return parsed.data;
    }
    const problem = this.problem(res);
    const text = problem ? describeProblem(problem) : undefined;
    const base = { operation, host: this.host, httpStatus: s, problem };
    if (s === 401) return this.fail({ ...base, code: "unauthorized", message: MESSAGES.unauthorized(this.host, operation) });
    if (s === 403) return this.fail({ ...base, code: "access_denied", message: MESSAGES.accessDenied(this.host, operation, text) });
    if (s === 404) return this.fail({ ...base, code: "not_found", message: MESSAGES.notFound(operation, text) });
    if (s >= 500) return this.fail({ ...base, code: "psp_unavailable", message: MESSAGES.pspUnavailable(this.host, operation, s, text) });
    return this.fail({ ...base, code: "psp_rejected", message: MESSAGES.pspRejected(operation, s, text) });
  }

  private fail(init: ConstructorParameters<typeof ApiPixError>[0]): never {
    throw new ApiPixError({ ...init, message: redact(init.message, this.secrets) });
  }

  private problem(res: RawResponse): Problema | undefined {
    const parsed = problemaSchema.safeParse(this.json(res));
    return parsed.success ? redactProblem(parsed.data, this.secrets) : undefined;
  }

  private json(res: RawResponse): unknown {
    if (res.body.trim() === "") return undefined;
    try {
      return JSON.parse(res.body);
    } catch {
      return undefined;
    }
  }

  private checkInput(operation: string, schema: z.ZodType, value: unknown, what: string): void {
    const parsed = schema.safeParse(value);
    if (parsed.success) return;
    throw this.logged(
      new ApiPixError({
        code: "invalid_request",
        message: redact(MESSAGES.invalidRequest(operation, `${what}: ${issuesText(parsed.error)}`), this.secrets),
        operation,
        host: this.host,
      }),
    );
  }

  private invalidResponse(operation: string, what: string): ApiPixError {
    return new ApiPixError({ code: "invalid_response", message: redact(MESSAGES.invalidResponse(operation, what), this.secrets), operation, host: this.host });
  }

  /** Logs an ApiPixError once (code, operation, status: never a body or a header) and returns it. */
  private logged(e: unknown): unknown {
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
