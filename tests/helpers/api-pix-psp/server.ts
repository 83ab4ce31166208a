/**
 * A local PSP speaking Banco Central's API Pix (release 2.8.x) for tests: a stand-in for a bank, not
 * a mock of Arara. It runs a real HTTPS server on 127.0.0.1 with mutual TLS (certificates made at
 * test time, see certs.ts), issues OAuth2 client-credentials tokens, and implements
 *
 *   POST /oauth/token
 *   PUT|GET  {base}/cob/{txid}
 *   GET      {base}/pix/{e2eid}            GET {base}/pix?inicio=&fim=&paginacao.*
 *   PUT|GET  {base}/pix/{e2eid}/devolucao/{id}
 *   PUT|GET  {base}/webhook/{chave}        and posts `{ pix: [...] }` to `{webhookUrl}/pix`
 *   PUT /v3/gn/pix/{idEnvio}, GET /v2/gn/pix/enviados/id-envio/{idEnvio}   Efí's Pix Envio (efi-pix-envio.ts)
 *
 * Every request is validated against the spec's schemas (lib/processors/api-pix/schemas.ts, which
 * describe the spec; the client's request builders are not used here) and refused with the spec's
 * problem body and status when it does not conform. It keeps its own state (cobs, Pix received,
 * refunds, webhook registrations, tokens) and builds a real dynamic BR Code for each cob.
 *
 * Tests drive the outside world through a plain JS API: a payer pays a cob (another amount, twice,
 * after expiry), notifications are delivered or dropped, a refund settles, tokens expire, and the
 * next requests fail with 5xx or hang.
 */
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { z } from "zod";
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";
import {
  API_PIX_SCOPES,
  cobCompletaSchema,
  cobGeradaSchema,
  cobRevisadaSchema,
  cobSolicitadaSchema,
  DEVOLUCAO_ID_REGEX,
  devolucaoSchema,
  devolucaoSolicitadaSchema,
  E2EID_REGEX,
  pixConsultadosSchema,
  pixConsultaQuerySchema,
  pixSchema,
  problemaSchema,
  PROBLEM_TYPE_BASE,
  tokenRequestSchema,
  tokenResponseSchema,
  TXID_REGEX,
  VALOR_REGEX,
  webhookCompletoSchema,
  webhookPixCallbackSchema,
  webhookSolicitadoSchema,
  type CobSolicitada,
  type CobStatus,
  type Devolucao,
  type DevolucaoStatus,
  type Pix,
  type Problema,
} from "@/lib/processors/api-pix/schemas";
import { dynamicBrCode } from "./brcode";
import { makeTestPki, type TestPki } from "./certs";
import { createEfiPixEnvio, type EfiPixEnvio } from "./efi-pix-envio";

export type PspCob = {
  txid: string;
  revisao: number;
  criacao: string;
  expiracao: number;
  status: CobStatus;
  request: CobSolicitada;
  loc: { id: number; location: string; tipoCob: "cob"; criacao: string };
  pixCopiaECola: string;
  /** e2eids of the Pix received for it, in order. */
  pix: string[];
};

export type PspPix = {
  endToEndId: string;
  txid: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes: Devolucao[];
};

export type RequestRecord = {
  method: string;
  path: string;
  /** The query string as sent ("?a=b", or "" without one). */
  query: string;
  kind: "token" | "api" | "unknown";
  status: number | null;
};

/** One token issued: the `scope` the client asked for (null when it sent none) and what was granted. */
export type TokenGrant = { requested: string | null; granted: string[] };

export type WebhookDelivery = {
  url: string;
  chave: string;
  body: { pix: Pix[] };
  /** The receiver's HTTP status; null when it could not be reached. */
  status: number | null;
  error?: string;
};

type Notification = { chave: string; e2eids: string[] };

export type PspOptions = {
  clientId?: string;
  clientSecret?: string;
  /** DICT keys of the receiving user at this PSP; a cob or webhook for another key is refused. */
  keys?: string[];
  /** The receiving user's CNPJ (shown in `GET /webhook/{chave}`). */
  cnpj?: string;
  merchantName?: string;
  merchantCity?: string;
  /** Lifetime of the access tokens it issues. Default 3600 s. */
  tokenTtlSeconds?: number;
  /** ISPB of the paying institution, in the e2eids it makes up. */
  payerIspb?: string;
  /** ISPB of this PSP, in refunds' rtrId. */
  ispb?: string;
  /** Certificates; made anew when absent (about a second). */
  pki?: TestPki;
  /** Path of the API under the host. Default "/api/v2". */
  basePath?: string;
  /** CA to trust when posting webhooks to an HTTPS receiver. */
  webhookCaPem?: string;
  webhookTimeoutMs?: number;
  now?: () => Date;
  /**
   * Scopes are enforced (off by default: every token carries every scope). The token endpoint grants
   * only the scopes asked for in the form's `scope` (space-separated) that it knows (SCOPES below:
   * the API Pix's and Efí's Pix Envio's), none when `scope` is absent, and echoes the granted ones in
   * the answer's `scope`; each operation then requires its scope as the spec's `security: OAuth2`
   * says (OPERATION_SCOPES) and answers 403 AcessoNegado without it.
   */
  requireScopes?: boolean;
  /**
   * How the client authenticates at the token endpoint. "basic" (default): HTTP Basic with the id and
   * secret. "body": only `client_id` in the form body, no Authorization header and no secret (the
   * client is known by its certificate, as Sicoob does); every API call must then also carry a
   * `client_id` header equal to it (401 otherwise).
   */
  clientAuth?: "basic" | "body";
  /**
   * Query parameters every API call (not the token request) must carry with these values, as Banco do
   * Brasil's `gw-dev-app-key` (401 with a problem body otherwise). They are taken out of the query
   * before the operation reads it.
   */
  requiredQuery?: Record<string, string>;
  /** Answers cobs without `pixCopiaECola` (optional in the spec: the client builds it from `location`). */
  omitCopiaECola?: boolean;
  /** Ways real PSPs write their answers (and webhook posts) that the spec's examples do not show. See PspQuirks. */
  quirks?: PspQuirks;
  /**
   * Registers a webhook URL that is not https (`PUT /webhook/{chave}`). Off by default: real PSPs
   * (Efí at least) refuse an http:// URL with 400 WebhookOperacaoInvalida, and so does this one.
   * Tests whose app listens on plain http turn it on.
   */
  allowHttpWebhook?: boolean;
};

/**
 * Answers as real PSPs write them, applied to what the stand-in sends (its answers are checked
 * against the schemas before, its requests are still validated strictly):
 */
export type PspQuirks = {
  /** Optional fields it has no value for are written `null` (`"pixCopiaECola": null`, a Pix's `"txid": null`, ...). */
  nullOptionals?: boolean;
  /** A Pix's txid is named `txId` (Santander), in answers and webhook posts. */
  txIdField?: boolean;
  /** The token's answer has no `expires_in` (only RECOMMENDED by RFC 6749). */
  noExpiresIn?: boolean;
  /** A cob's `calendario.expiracao` is a string of digits ("3600"), as in the spec's own example. */
  expiracaoAsString?: boolean;
  /** A cob's answer leaves `calendario.expiracao` out. */
  noExpiracao?: boolean;
};

export type PayOptions = {
  /** Centavos paid, when not the charge's amount. */
  amount?: number;
  at?: Date;
  /** Let the payment through although the charge has expired (a late settlement). */
  afterExpiry?: boolean;
  infoPagador?: string;
  /** What happens to the notification: queued until deliverWebhooks() (default), sent now, or dropped. */
  notify?: "queue" | "deliver" | "drop";
};

export type MedReturnOptions = {
  /** Centavos returned; default what the Pix has left after its other devoluções. */
  amount?: number;
  /**
   * Default MED_FRAUDE. ORIGINAL, or null (the field left out, which the spec reads as ORIGINAL): a
   * devolução the receiver made in the PSP's own app or internet banking, not through Arara.
   */
  natureza?: "MED_OPERACIONAL" | "MED_FRAUDE" | "MED_PIX_AUTOMATICO" | "ORIGINAL" | null;
  status?: DevolucaoStatus;
  motivo?: string;
  /** Let it exceed what the Pix has left (a PSP breaking the rule that devoluções never exceed the Pix). */
  beyondPix?: boolean;
};

export type ApiPixPsp = {
  host: string;
  port: number;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  keys: string[];
  pki: TestPki;
  /** Efí's Pix Envio on this host: its sends and the controls to settle them. */
  efi: EfiPixEnvio;
  cobs: Map<string, PspCob>;
  pix: Map<string, PspPix>;
  webhooks: Map<string, { webhookUrl: string; chave: string; criacao: string }>;
  requests: RequestRecord[];
  /** The bodies of `PATCH /cob/{txid}` received, as sent (validated by the operation). */
  patches: { txid: string; body: string }[];
  deliveries: WebhookDelivery[];
  /** Server-side failures of the stand-in itself (a bug here, not in the client). */
  internalErrors: Error[];
  /** Tokens issued so far (to look for them where they must not be). */
  issuedTokens: () => string[];
  /** Every token issued, in order: the scope asked for and the scopes granted. */
  tokenGrants: TokenGrant[];
  /** The API calls answered 403 for lack of a scope: the operation and the scope it needed. */
  scopeDenials: { method: string; path: string; scope: string }[];
  tokenRequests: () => number;
  pay: (txid: string, options?: PayOptions) => Promise<Pix>;
  pendingWebhooks: () => number;
  deliverWebhooks: () => Promise<WebhookDelivery[]>;
  dropWebhooks: () => number;
  settleDevolucao: (e2eid: string, id: string, status: Exclude<DevolucaoStatus, "EM_PROCESSAMENTO">, motivo?: string) => Devolucao;
  /**
   * The PSP returns (part of) a Pix by itself under Banco Central's MED (natureza MED_FRAUDE by
   * default, DEVOLVIDO by default, the whole Pix by default), with an id of its own; the callback fires
   * as for any devolução (queued). Settle one made EM_PROCESSAMENTO with settleDevolucao.
   */
  medReturn: (e2eid: string, options?: MedReturnOptions) => Devolucao;
  /** The PSP removes the charge (REMOVIDA_PELO_PSP), as some do once it expires. */
  removeCob: (txid: string) => void;
  expireTokens: () => void;
  setTokenTtl: (seconds: number) => void;
  /**
   * From now on every JSON answer of the API passes through `fn` (method, path under the base, body)
   * before it is sent, to speak as a PSP that strays from the spec; null stops it.
   */
  setAnswerRewrite: (fn: ((method: string, path: string, body: unknown) => unknown) | null) => void;
  /** From now on cobs are answered with (false) or without (true) `pixCopiaECola`. */
  setOmitCopiaECola: (on: boolean) => void;
  /** From now on the answers carry these quirks (replacing the ones set before). */
  setQuirks: (quirks: PspQuirks) => void;
  /**
   * A Pix received on the key without a charge (a transfer to the key, or a static QR): no txid.
   * Not notified (the spec's webhook is for Pix with a txid).
   */
  receive: (options: { amount: number; chave?: string; at?: Date; infoPagador?: string }) => Pix;
  /** The next `n` requests (of one kind, or any) answer `status` with a problem body (and a Retry-After header, when given). */
  failNext: (n: number, status?: number, only?: "api" | "token", retryAfter?: string) => void;
  /** The next `n` requests are read and never answered. */
  hangNext: (n?: number, only?: "api" | "token") => void;
  /** Requests held by hangNext are cut off (the client sees the connection reset), their work undone. */
  releaseHung: () => void;
  /** Requests held by hangNext still open (their clients still waiting). */
  hungRequests: () => number;
  close: () => Promise<void>;
};

const INTERNAL = "ErroInternoDoServidor";

/** Scopes this stand-in knows: the API Pix's, and Efí's Pix Envio's (lib/processors/payouts/efi-schemas.ts). */
export const SCOPES: readonly string[] = [...API_PIX_SCOPES, "pix.send", "gn.pix.send.read"];

/** The scope each operation requires (the spec's `security: - OAuth2: [...]`), by method and path under the base. */
function operationScope(method: string, rest: string): string | null {
  if (/^\/cob\/[^/]+$/.test(rest)) return method === "PUT" || method === "PATCH" ? "cob.write" : "cob.read";
  if (/^\/pix\/[^/]+\/devolucao\/[^/]+$/.test(rest)) return method === "PUT" ? "pix.write" : "pix.read";
  if (/^\/pix(\/[^/]+)?$/.test(rest)) return "pix.read";
  if (/^\/webhook\/[^/]+$/.test(rest)) return method === "PUT" || method === "DELETE" ? "webhook.write" : "webhook.read";
  return null;
}
/** Efí's Pix Envio: PUT /v3/gn/pix/{idEnvio} needs pix.send, GET /v2/gn/pix/enviados/... gn.pix.send.read. */
function efiScope(method: string, path: string): string | null {
  if (method === "PUT" && path.startsWith("/v3/gn/pix/")) return "pix.send";
  if (path.startsWith("/v2/gn/pix/enviados/")) return "gn.pix.send.read";
  return null;
}
const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomAlnum(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += ALNUM[b % 62];
    }
  }
  return out;
}

/** Centavos as the API's decimal string (the stand-in's own, not the client's helper). */
function valorOf(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`bad amount ${cents}`);
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
function centsOf(valor: string): number {
  const [r, c] = valor.split(".");
  return Number(r) * 100 + Number(c);
}

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

function problem(status: number, tipo: string, title: string, detail: string, violacoes?: { razao: string; propriedade: string }[]): HttpAnswer {
  const p: Problema = { type: PROBLEM_TYPE_BASE + tipo, title, status, detail };
  if (violacoes && violacoes.length > 0) p.violacoes = violacoes;
  return new HttpAnswer(status, problemaSchema.parse(p), { "content-type": "application/problem+json" });
}

function violationsOf(error: z.ZodError, prefix: string) {
  return error.issues.map((i) => {
    const propriedade = [prefix, ...i.path.map(String)].join(".");
    return { razao: `O campo ${propriedade} não respeita o _schema_ (${i.message}).`, propriedade };
  });
}

function ok<S extends z.ZodType>(status: number, schema: S, body: z.input<S>): HttpAnswer {
  // The stand-in checks its own answers too: a PSP that spoke off-spec would make the tests lie.
  return new HttpAnswer(status, schema.parse(body), { "content-type": "application/json" });
}

export async function startApiPixPsp(options: PspOptions = {}): Promise<ApiPixPsp> {
  const pki = options.pki ?? makeTestPki();
  const now = options.now ?? (() => new Date());
  const clientId = options.clientId ?? `app-${randomAlnum(12)}`;
  const clientSecret = options.clientSecret ?? `sec-${randomAlnum(32)}`;
  const keys = options.keys ?? ["pagamentos@loja.example", randomUUID()];
  const cnpj = options.cnpj ?? "11222333000181";
  const merchantName = options.merchantName ?? "Loja de Testes";
  const merchantCity = options.merchantCity ?? "SAO PAULO";
  const payerIspb = options.payerIspb ?? "87654321";
  const ispb = options.ispb ?? "12345678";
  const basePath = (options.basePath ?? "/api/v2").replace(/\/+$/, "");
  let tokenTtl = options.tokenTtlSeconds ?? 3600;
  const requireScopes = options.requireScopes ?? false;
  const clientAuth = options.clientAuth ?? "basic";
  const requiredQuery = options.requiredQuery ?? {};
  let omitCopiaECola = options.omitCopiaECola ?? false;
  let quirks: PspQuirks = { ...options.quirks };
  const allowHttpWebhook = options.allowHttpWebhook ?? false;
  let rewrite: ((method: string, path: string, body: unknown) => unknown) | null = null;

  const cobs = new Map<string, PspCob>();
  const pixes = new Map<string, PspPix>();
  const webhooks = new Map<string, { webhookUrl: string; chave: string; criacao: string }>();
  const tokens = new Map<string, { expiresAt: number; scopes: ReadonlySet<string> }>();
  const tokenGrants: TokenGrant[] = [];
  const scopeDenials: { method: string; path: string; scope: string }[] = [];
  const requests: RequestRecord[] = [];
  const deliveries: WebhookDelivery[] = [];
  const internalErrors: Error[] = [];
  const pending: Notification[] = [];
  const faults: { kind: "fail" | "hang"; status: number; only?: "api" | "token"; retryAfter?: string }[] = [];
  const patches: { txid: string; body: string }[] = [];
  const hung = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  let nextLocId = 1;
  const efi = createEfiPixEnvio({ keys, ispb, now, randomAlnum });
  let port = 0;

  const iso = (d: Date = now()) => d.toISOString();

  // ---- views -----------------------------------------------------------------------------------------

  const pixView = (p: PspPix): Pix => {
    // A Pix without a charge (receive()) has no txid: the property is left out (undefined), as the spec has it.
    const v: Pix = { endToEndId: p.endToEndId, txid: p.txid === "" ? undefined : p.txid, valor: p.valor, chave: p.chave, horario: p.horario, componentesValor: { original: { valor: p.valor } } };
    if (p.infoPagador) v.infoPagador = p.infoPagador;
    if (p.devolucoes.length > 0) v.devolucoes = p.devolucoes.map((d) => ({ ...d, ...(d.horario ? { horario: { ...d.horario } } : {}) }));
    return pixSchema.parse(v);
  };

  const cobView = (c: PspCob) => ({
    calendario: { criacao: c.criacao, expiracao: c.expiracao },
    txid: c.txid,
    revisao: c.revisao,
    loc: { ...c.loc, txid: c.txid },
    location: c.loc.location,
    status: c.status,
    ...(c.request.devedor ? { devedor: c.request.devedor } : {}),
    valor: { original: c.request.valor.original, modalidadeAlteracao: c.request.valor.modalidadeAlteracao ?? 0 },
    chave: c.request.chave,
    ...(c.request.solicitacaoPagador ? { solicitacaoPagador: c.request.solicitacaoPagador } : {}),
    ...(c.request.infoAdicionais ? { infoAdicionais: c.request.infoAdicionais } : {}),
    ...(omitCopiaECola ? {} : { pixCopiaECola: c.pixCopiaECola }),
  });

  /**
   * The quirks (PspQuirks) applied to a body about to be sent; the shapes are told apart by their
   * fields (a Pix has endToEndId, a cob calendario and txid, a devolução rtrId or id/valor/status).
   */
  function withQuirks(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(withQuirks);
    if (v === null || typeof v !== "object") return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = withQuirks(x);
    const nullIfAbsent = (...fields: string[]) => {
      if (quirks.nullOptionals) for (const f of fields) if (o[f] === undefined) o[f] = null;
    };
    if (typeof o.endToEndId === "string") {
      nullIfAbsent("txid", "infoPagador", "devolucoes");
      if (quirks.txIdField) {
        o.txId = o.txid;
        delete o.txid;
      }
    } else if (typeof o.txid === "string" && o.calendario && typeof o.calendario === "object") {
      const cal = o.calendario as Record<string, unknown>;
      if (quirks.noExpiracao) delete cal.expiracao;
      else if (quirks.expiracaoAsString && typeof cal.expiracao === "number") cal.expiracao = String(cal.expiracao);
      nullIfAbsent("devedor", "solicitacaoPagador", "infoAdicionais", "pixCopiaECola");
    } else if (typeof o.id === "string" && typeof o.valor === "string" && typeof o.status === "string") {
      nullIfAbsent("descricao", "motivo");
      if (o.horario && typeof o.horario === "object" && quirks.nullOptionals) {
        const h = o.horario as Record<string, unknown>;
        if (h.liquidacao === undefined) h.liquidacao = null;
      }
    } else if (typeof o.access_token === "string") {
      if (quirks.noExpiresIn) delete o.expires_in;
      nullIfAbsent("expires_in");
    }
    return o;
  }

  // ---- token endpoint ------------------------------------------------------------------------------

  const oauthError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
    new HttpAnswer(status, { error, error_description: description }, { "content-type": "application/json", "cache-control": "no-store", ...headers });

  function token(req: http.IncomingMessage, body: string): HttpAnswer {
    if (req.method !== "POST") return oauthError(405, "invalid_request", "use POST");
    const invalidClient = () => oauthError(401, "invalid_client", "client authentication failed", clientAuth === "basic" ? { "www-authenticate": 'Basic realm="api-pix"' } : {});
    let form: Record<string, string>;
    if (clientAuth === "body") {
      // The client is known by its certificate and says who it is in the body: no header, no secret.
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
        return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded");
      }
      form = Object.fromEntries(new URLSearchParams(body));
      if (req.headers.authorization !== undefined || form.client_secret !== undefined || form.client_id !== clientId) return invalidClient();
    } else {
      const auth = req.headers.authorization ?? "";
      const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(auth);
      const decoded = m ? Buffer.from(m[1], "base64").toString("utf8") : "";
      const sep = decoded.indexOf(":");
      if (sep < 0 || decoded.slice(0, sep) !== clientId || decoded.slice(sep + 1) !== clientSecret) return invalidClient();
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
        return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded");
      }
      form = Object.fromEntries(new URLSearchParams(body));
      // A client_id repeated in the body is harmless when it is the same; a secret there too is a
      // second authentication method (RFC 6749 2.3: one per request).
      if (form.client_secret !== undefined || (form.client_id !== undefined && form.client_id !== clientId)) return invalidClient();
    }
    delete form.client_id;
    if (form.grant_type !== undefined && form.grant_type !== "client_credentials") {
      return oauthError(400, "unsupported_grant_type", "only client_credentials");
    }
    const parsed = tokenRequestSchema.safeParse(form);
    if (!parsed.success) return oauthError(400, "invalid_request", "malformed token request");
    const requested = parsed.data.scope ?? null;
    // Without requireScopes every token carries every scope (the application's, as most PSPs do).
    const granted = requireScopes ? [...new Set((requested ?? "").split(" ").filter((x) => SCOPES.includes(x)))] : [...SCOPES];
    tokenGrants.push({ requested, granted });
    const value = randomBytes(32).toString("base64url");
    tokens.set(value, { expiresAt: Date.now() + tokenTtl * 1000, scopes: new Set(granted) });
    return new HttpAnswer(
      200,
      tokenResponseSchema.parse({ access_token: value, token_type: "Bearer", expires_in: tokenTtl, scope: requireScopes ? granted.join(" ") : API_PIX_SCOPES.join(" ") }),
      { "content-type": "application/json", "cache-control": "no-store" },
    );
  }

  /**
   * What every API call must pass before its operation: the required query parameters, the
   * `client_id` header (clientAuth "body"), a live bearer token, and the operation's scope
   * (requireScopes). Null when it passes.
   */
  function authorized(req: http.IncomingMessage, url: URL, scope: string | null): HttpAnswer | null {
    for (const [k, v] of Object.entries(requiredQuery)) {
      if (url.searchParams.get(k) !== v) {
        return problem(401, "AcessoNegado", "Acesso Negado", `Requisição sem o parâmetro de consulta ${k} exigido por este PSP, ou com outro valor.`);
      }
    }
    if (clientAuth === "body" && req.headers["client_id"] !== clientId) {
      return problem(401, "AcessoNegado", "Acesso Negado", "Requisição sem o cabeçalho client_id da aplicação, ou com outro valor.");
    }
    const m = /^Bearer ([\x21-\x7e]+)$/.exec(req.headers.authorization ?? "");
    const t = m ? tokens.get(m[1]) : undefined;
    if (!t || Date.now() >= t.expiresAt) {
      const error = m ? "invalid_token" : "invalid_request";
      return new HttpAnswer(401, { error, error_description: t ? "token expired" : "missing or unknown token" }, {
        "content-type": "application/json",
        "www-authenticate": `Bearer realm="api-pix", error="${error}"`,
      });
    }
    if (requireScopes && scope !== null && !t.scopes.has(scope)) {
      scopeDenials.push({ method: req.method ?? "", path: url.pathname, scope });
      return problem(403, "AcessoNegado", "Acesso Negado", "Requisição de participante autenticado que viola alguma regra de autorização.");
    }
    return null;
  }

  // ---- API operations --------------------------------------------------------------------------------

  const jsonBody = (req: http.IncomingMessage, body: string): { ok: true; value: unknown } | { ok: false } => {
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return { ok: false };
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch {
      return { ok: false };
    }
  };

  function putCob(req: http.IncomingMessage, txid: string, body: string): HttpAnswer {
    const invalid = (violacoes: { razao: string; propriedade: string }[], detail = "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.") =>
      problem(400, "CobOperacaoInvalida", "Cobrança inválida.", detail, violacoes);
    if (!TXID_REGEX.test(txid)) return invalid([{ razao: "O campo cob.txid não respeita o _schema_.", propriedade: "cob.txid" }]);
    const json = jsonBody(req, body);
    if (!json.ok) return invalid([{ razao: "O corpo não é um JSON (application/json).", propriedade: "cob" }]);
    const parsed = cobSolicitadaSchema.safeParse(json.value);
    if (!parsed.success) return invalid(violationsOf(parsed.error, "cob"));
    const cob = parsed.data;
    const v: { razao: string; propriedade: string }[] = [];
    if (centsOf(cob.valor.original) === 0 && cob.valor.modalidadeAlteracao !== 1) {
      v.push({ razao: "O campo cob.valor.original é zero.", propriedade: "cob.valor.original" });
    }
    if (!keys.includes(cob.chave)) {
      v.push({ razao: "O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.", propriedade: "cob.chave" });
    }
    if (cob.loc !== undefined) v.push({ razao: "O location referenciado por loc.id inexiste.", propriedade: "cob.loc.id" });
    if (v.length > 0) return invalid(v);

    const existing = cobs.get(txid);
    if (existing) {
      if (existing.status !== "ATIVA") {
        return invalid([], "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.");
      }
      if (JSON.stringify(existing.request) !== JSON.stringify(cob)) {
        existing.request = cob;
        existing.expiracao = cob.calendario.expiracao ?? 86400;
        existing.revisao += 1;
      }
      return ok(200, cobGeradaSchema, cobView(existing));
    }
    const criacao = iso();
    const loc = { id: nextLocId++, location: `localhost:${port}/qr/v2/${randomUUID().replace(/-/g, "")}`, tipoCob: "cob" as const, criacao };
    const created: PspCob = {
      txid,
      revisao: 0,
      criacao,
      expiracao: cob.calendario.expiracao ?? 86400,
      status: "ATIVA",
      request: cob,
      loc,
      pixCopiaECola: dynamicBrCode({ location: loc.location, merchantName, merchantCity }),
      pix: [],
    };
    cobs.set(txid, created);
    return ok(201, cobGeradaSchema, cobView(created));
  }

  /**
   * `PATCH /cob/{txid}` (CobRevisada), as the spec says: 404 CobNaoEncontrado for an unknown txid; 400
   * CobOperacaoInvalida for a body off the schema, a charge no longer ATIVA (CONCLUIDA, or removed
   * already), or a removal with other changes; else the charge revised (or removed), revisao + 1.
   */
  function patchCob(req: http.IncomingMessage, txid: string, body: string): HttpAnswer {
    const invalid = (violacoes: { razao: string; propriedade: string }[], detail = "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.") =>
      problem(400, "CobOperacaoInvalida", "Cobrança inválida.", detail, violacoes);
    patches.push({ txid, body });
    if (!TXID_REGEX.test(txid)) return invalid([{ razao: "O campo cob.txid não respeita o _schema_.", propriedade: "cob.txid" }]);
    const c = cobs.get(txid);
    if (!c) return problem(404, "CobNaoEncontrado", "Cobrança não encontrada.", "Cobrança não encontrada para o txid informado.");
    const json = jsonBody(req, body);
    if (!json.ok) return invalid([{ razao: "O corpo não é um JSON (application/json).", propriedade: "cob" }]);
    const parsed = cobRevisadaSchema.safeParse(json.value);
    if (!parsed.success) return invalid(violationsOf(parsed.error, "cob"));
    if (c.status !== "ATIVA") return invalid([], "A cobrança não está ATIVA, e a presente requisição busca alterá-la.");
    const { status, ...changes } = parsed.data;
    if (status) c.status = status;
    else {
      c.request = { ...c.request, ...changes, valor: { ...c.request.valor, ...changes.valor }, calendario: { ...c.request.calendario, ...changes.calendario } } as CobSolicitada;
      if (changes.calendario?.expiracao !== undefined) c.expiracao = changes.calendario.expiracao;
    }
    c.revisao += 1;
    return ok(200, cobGeradaSchema, cobView(c));
  }

  const consultaInvalida = (tipo: string, razao: string, propriedade: string) =>
    problem(400, tipo, "Consulta inválida.", "Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.", [{ razao, propriedade }]);

  function getCob(txid: string, url: URL): HttpAnswer {
    if (!TXID_REGEX.test(txid)) return consultaInvalida("CobConsultaInvalida", "O parâmetro txid não respeita o _schema_.", "txid");
    for (const k of url.searchParams.keys()) {
      if (k !== "revisao") return consultaInvalida("CobConsultaInvalida", `O parâmetro ${k} não existe nesta consulta.`, k);
    }
    const c = cobs.get(txid);
    if (!c) return problem(404, "CobNaoEncontrado", "Cobrança não encontrada.", "Cobrança não encontrada para o txid informado.");
    const revisao = url.searchParams.get("revisao");
    // Only the current revision is kept here; an older or unknown one is refused as the spec says.
    if (revisao !== null && (!/^\d{1,9}$/.test(revisao) || Number(revisao) !== c.revisao)) {
      return consultaInvalida("CobConsultaInvalida", "O parâmetro revisao corresponde a uma revisão inexistente para a cobrança.", "revisao");
    }
    const view = { ...cobView(c), ...(c.pix.length > 0 ? { pix: c.pix.map((e) => pixView(pixes.get(e)!)) } : {}) };
    return ok(200, cobCompletaSchema, view);
  }

  function getPix(e2eid: string): HttpAnswer {
    if (!E2EID_REGEX.test(e2eid)) return consultaInvalida("PixConsultaInvalida", "O parâmetro e2eid não respeita o _schema_.", "e2eid");
    const p = pixes.get(e2eid);
    if (!p) return problem(404, "PixNaoEncontrado", "Pix não encontrado.", "Pix não encontrado para o e2eid informado.");
    return ok(200, pixSchema, pixView(p));
  }

  function listPix(url: URL): HttpAnswer {
    const params: Record<string, string> = {};
    for (const [k, val] of url.searchParams) {
      if (k in params) {
        return problem(400, "PixConsultaInvalida", "Consulta inválida.", `O parâmetro ${k} aparece mais de uma vez.`);
      }
      params[k] = val;
    }
    const parsed = pixConsultaQuerySchema.safeParse(params);
    if (!parsed.success) {
      return problem(
        400,
        "PixConsultaInvalida",
        "Consulta inválida.",
        "Os parâmetros de consulta à lista de pix recebidos não respeitam o _schema_ ou não fazem sentido semanticamente.",
        violationsOf(parsed.error, "parametros"),
      );
    }
    const q = parsed.data;
    const from = Date.parse(q.inicio);
    const to = Date.parse(q.fim);
    const all = [...pixes.values()]
      .filter((p) => {
        const t = Date.parse(p.horario);
        if (t < from || t > to) return false;
        if (q.txid !== undefined && p.txid !== q.txid) return false;
        if (q.txIdPresente !== undefined && q.txIdPresente !== (p.txid !== "")) return false;
        if (q.devolucaoPresente !== undefined && q.devolucaoPresente !== p.devolucoes.length > 0) return false;
        return true;
      })
      .sort((a, b) => Date.parse(a.horario) - Date.parse(b.horario) || a.endToEndId.localeCompare(b.endToEndId));
    const page = q["paginacao.paginaAtual"] ?? 0;
    const size = q["paginacao.itensPorPagina"] ?? 100;
    const body = {
      parametros: {
        inicio: q.inicio,
        fim: q.fim,
        ...(q.txid !== undefined ? { txid: q.txid } : {}),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: size,
          quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)),
          quantidadeTotalDeItens: all.length,
        },
      },
      pix: all.slice(page * size, page * size + size).map(pixView),
    };
    return ok(200, pixConsultadosSchema, body);
  }

  function putDevolucao(req: http.IncomingMessage, e2eid: string, id: string, body: string): HttpAnswer {
    const invalid = (razao: string, propriedade: string) =>
      problem(400, "PixDevolucaoInvalida", "Devolução inválida.", "A presente requisição de devolução não respeita o _schema_ ou não faz sentido semanticamente.", [
        { razao, propriedade },
      ]);
    if (!E2EID_REGEX.test(e2eid)) return invalid("O parâmetro e2eid não respeita o _schema_.", "e2eid");
    if (!DEVOLUCAO_ID_REGEX.test(id)) return invalid("O parâmetro id não respeita o _schema_.", "id");
    const json = jsonBody(req, body);
    if (!json.ok) return invalid("O corpo não é um JSON (application/json).", "devolucao");
    const parsed = devolucaoSolicitadaSchema.safeParse(json.value);
    if (!parsed.success) {
      return problem(400, "PixDevolucaoInvalida", "Devolução inválida.", "A presente requisição de devolução não respeita o _schema_.", violationsOf(parsed.error, "devolucao"));
    }
    const p = pixes.get(e2eid);
    if (!p) return problem(404, "PixNaoEncontrado", "Pix não encontrado.", "Pix não encontrado para o e2eid informado.");
    const asked = parsed.data;
    const same = p.devolucoes.find((d) => d.id === id);
    if (same) {
      if (same.valor === asked.valor) return ok(201, devolucaoSchema, same);
      return invalid("A presente requisição de devolução apresenta um id já utilizado por outra requisição de devolução para o e2eid em questão.", "devolucao.id");
    }
    if (asked.natureza === "RETIRADA") return invalid("Este Pix não é um Pix Saque ou Pix Troco: a natureza deve ser ORIGINAL.", "devolucao.natureza");
    if (centsOf(asked.valor) === 0) return invalid("O campo devolucao.valor é zero.", "devolucao.valor");
    const refunded = p.devolucoes.filter((d) => d.status !== "NAO_REALIZADO").reduce((s, d) => s + centsOf(d.valor), 0);
    if (refunded + centsOf(asked.valor) > centsOf(p.valor)) {
      return invalid("A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.", "devolucao.valor");
    }
    const at = now();
    const dev: Devolucao = {
      id,
      rtrId: "D" + makeEnd2EndId(ispb, at, randomAlnum(11)).slice(1),
      valor: asked.valor,
      natureza: asked.natureza ?? "ORIGINAL",
      ...(asked.descricao ? { descricao: asked.descricao } : {}),
      horario: { solicitacao: iso(at) },
      status: "EM_PROCESSAMENTO",
    };
    p.devolucoes.push(devolucaoSchema.parse(dev));
    return ok(201, devolucaoSchema, dev);
  }

  function getDevolucao(e2eid: string, id: string): HttpAnswer {
    if (!E2EID_REGEX.test(e2eid)) return consultaInvalida("PixConsultaInvalida", "O parâmetro e2eid não respeita o _schema_.", "e2eid");
    if (!DEVOLUCAO_ID_REGEX.test(id)) return consultaInvalida("PixConsultaInvalida", "O parâmetro id não respeita o _schema_.", "id");
    const d = pixes.get(e2eid)?.devolucoes.find((x) => x.id === id);
    if (!d) return problem(404, "PixDevolucaoNaoEncontrada", "Devolução não encontrada.", "Devolução não encontrada para o e2eid informado.");
    return ok(200, devolucaoSchema, d);
  }

  function putWebhook(req: http.IncomingMessage, chave: string, body: string): HttpAnswer {
    const invalid = (razao: string, propriedade: string) =>
      problem(400, "WebhookOperacaoInvalida", "Webhook inválido.", "A presente requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, com sentido semanticamente inválido.", [
        { razao, propriedade },
      ]);
    if (chave.length > 77 || !keys.includes(chave)) {
      return invalid("O parâmetro chave não corresponde a uma chave DICT pertencente a este usuário recebedor.", "chave");
    }
    const json = jsonBody(req, body);
    if (!json.ok) return invalid("O corpo não é um JSON (application/json).", "webhook");
    const parsed = webhookSolicitadoSchema.safeParse(json.value);
    if (!parsed.success) return invalid("Campo webhook.webhookUrl não respeita o _schema_.", "webhook.webhookUrl");
    // As Efí and others: the PSP posts over TLS (mutual, with its own certificate) only.
    if (!allowHttpWebhook && !parsed.data.webhookUrl.startsWith("https://")) {
      return invalid("O campo webhook.webhookUrl deve usar https.", "webhook.webhookUrl");
    }
    webhooks.set(chave, { webhookUrl: parsed.data.webhookUrl, chave, criacao: iso() });
    return new HttpAnswer(200, undefined);
  }

  function getWebhook(chave: string): HttpAnswer {
    if (chave.length > 77) return consultaInvalida("WebhookConsultaInvalida", "O parâmetro chave tem mais de 77 caracteres.", "chave");
    const w = webhooks.get(chave);
    if (!w) return problem(404, "WebhookNaoEncontrado", "Webhook não encontrado.", "O webhook associado à chave não encontra-se estabelecido.");
    return ok(200, webhookCompletoSchema, { ...w, cnpj });
  }

  function route(req: http.IncomingMessage, url: URL, body: string): HttpAnswer {
    const path = url.pathname;
    if (path === "/oauth/token") return token(req, body);
    if (efi.owns(path)) {
      const denied = authorized(req, url, efiScope(req.method ?? "GET", path));
      if (denied) return denied;
      const a = efi.handle(req.method ?? "GET", path, body);
      return new HttpAnswer(a.status, a.body, { "content-type": a.contentType });
    }
    if (!path.startsWith(`${basePath}/`)) return problem(404, "NaoEncontrado", "Não Encontrado", "Entidade não encontrada.");
    const rest = path.slice(basePath.length);
    const method = req.method ?? "GET";
    const denied = authorized(req, url, operationScope(method, rest));
    if (denied) return denied;
    // The operations read their own query only: the parameters this PSP requires on every call are taken out.
    for (const k of Object.keys(requiredQuery)) url.searchParams.delete(k);
    let m: RegExpExecArray | null;
    if ((m = /^\/cob\/([^/]+)$/.exec(rest))) {
      if (method === "PUT") return putCob(req, m[1], body);
      if (method === "PATCH") return patchCob(req, m[1], body);
      if (method === "GET") return getCob(m[1], url);
    } else if ((m = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(rest))) {
      if (method === "PUT") return putDevolucao(req, m[1], m[2], body);
      if (method === "GET") return getDevolucao(m[1], m[2]);
    } else if ((m = /^\/pix\/([^/]+)$/.exec(rest))) {
      if (method === "GET") return getPix(m[1]);
    } else if (rest === "/pix") {
      if (method === "GET") return listPix(url);
    } else if ((m = /^\/webhook\/([^/]+)$/.exec(rest))) {
      let chave: string;
      try {
        chave = decodeURIComponent(m[1]);
      } catch {
        return problem(400, "WebhookOperacaoInvalida", "Webhook inválido.", "O parâmetro chave não é uma chave DICT válida.");
      }
      if (method === "PUT") return putWebhook(req, chave, body);
      if (method === "GET") return getWebhook(chave);
    }
    return problem(404, "NaoEncontrado", "Não Encontrado", "Entidade não encontrada.");
  }

  // ---- the server ------------------------------------------------------------------------------------

  const server = https.createServer(
    {
      key: pki.server.keyPem,
      cert: pki.server.certPem,
      ca: [pki.ca.certPem],
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const url = new URL(req.url ?? "/", "https://localhost");
      const kind: RequestRecord["kind"] = url.pathname === "/oauth/token" ? "token" : url.pathname.startsWith(`${basePath}/`) || efi.owns(url.pathname) ? "api" : "unknown";
      const record: RequestRecord = { method: req.method ?? "", path: url.pathname, query: url.search, kind, status: null };
      requests.push(record);
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size <= 1024 * 1024) chunks.push(c);
      });
      req.on("end", () => {
        const faultIndex = faults.findIndex((f) => f.only === undefined || f.only === kind);
        if (faultIndex >= 0) {
          const fault = faults.splice(faultIndex, 1)[0];
          if (fault.kind === "hang") {
            hung.add(res);
            res.on("close", () => hung.delete(res));
            return;
          }
          const failed = problem(fault.status, "ServicoIndisponivel", "Serviço Indisponível", "Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.");
          return answer(res, record, fault.retryAfter === undefined ? failed : new HttpAnswer(failed.status, failed.body, { ...failed.headers, "retry-after": fault.retryAfter }));
        }
        if (size > 1024 * 1024) return answer(res, record, problem(413, "RequisicaoInvalida", "Requisição inválida.", "Corpo grande demais."));
        let result: HttpAnswer;
        try {
          result = route(req, url, Buffer.concat(chunks).toString("utf8"));
        } catch (e) {
          internalErrors.push(e instanceof Error ? e : new Error(String(e)));
          result = problem(500, INTERNAL, "Erro Interno do Servidor", "Condição inesperada ao processar requisição.");
        }
        if (kind !== "unknown" && !efi.owns(url.pathname) && result.body !== undefined && result.status < 300) {
          result = new HttpAnswer(result.status, withQuirks(result.body), result.headers);
        }
        if (rewrite && kind === "api" && result.body !== undefined && result.status < 300) {
          result = new HttpAnswer(result.status, rewrite(req.method ?? "GET", url.pathname.slice(basePath.length), structuredClone(result.body)), result.headers);
        }
        answer(res, record, result);
      });
    },
  );

  function answer(res: http.ServerResponse, record: RequestRecord, a: HttpAnswer) {
    record.status = a.status;
    const text = a.body === undefined ? "" : JSON.stringify(a.body);
    res.writeHead(a.status, { ...a.headers, "content-length": String(Buffer.byteLength(text)) });
    res.end(text);
  }

  server.on("secureConnection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("tlsClientError", () => {
    /* a refused client certificate: the handshake fails, nothing to answer */
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  // ---- webhooks ----------------------------------------------------------------------------------------

  const webhookTimeoutMs = options.webhookTimeoutMs ?? 5000;

  function post(url: string, body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
      const onResponse = (res: http.IncomingMessage) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      };
      const req =
        target.protocol === "https:"
          ? https.request(
              target,
              {
                method: "POST",
                headers,
                timeout: webhookTimeoutMs,
                agent: false,
                // The PSP authenticates itself to the receiver with its own certificate (mutual TLS).
                cert: pki.webhookClient.certPem,
                key: pki.webhookClient.keyPem,
                ...(options.webhookCaPem ? { ca: options.webhookCaPem } : {}),
              },
              onResponse,
            )
          : http.request(target, { method: "POST", headers, timeout: webhookTimeoutMs }, onResponse);
      req.on("timeout", () => req.destroy(new Error("webhook receiver timed out")));
      req.on("error", reject);
      req.end(body);
    });
  }

  async function deliver(n: Notification): Promise<WebhookDelivery> {
    const body = webhookPixCallbackSchema.parse({ pix: n.e2eids.map((e) => pixView(pixes.get(e)!)) }) as { pix: Pix[] };
    const reg = webhooks.get(n.chave);
    if (!reg) {
      const d: WebhookDelivery = { url: "", chave: n.chave, body, status: null, error: "no webhook registered for the key" };
      deliveries.push(d);
      return d;
    }
    // The spec's callback is `{webhookUrl}/pix`, appended as is.
    const url = `${reg.webhookUrl}/pix`;
    const d: WebhookDelivery = { url, chave: n.chave, body, status: null };
    try {
      d.status = await post(url, JSON.stringify(withQuirks(body)));
    } catch (e) {
      d.error = e instanceof Error ? e.message : String(e);
    }
    deliveries.push(d);
    return d;
  }

  const queue = (n: Notification, how: PayOptions["notify"]) => {
    if (how === "drop") return null;
    if (how === "deliver") return deliver(n);
    pending.push(n);
    return null;
  };

  // ---- controls ----------------------------------------------------------------------------------------

  const psp: ApiPixPsp = {
    host: "127.0.0.1",
    port,
    baseUrl: `https://127.0.0.1:${port}${basePath}`,
    tokenUrl: `https://127.0.0.1:${port}/oauth/token`,
    clientId,
    clientSecret,
    keys,
    pki,
    efi,
    cobs,
    pix: pixes,
    webhooks,
    requests,
    patches,
    deliveries,
    internalErrors,
    issuedTokens: () => [...tokens.keys()],
    tokenGrants,
    scopeDenials,
    tokenRequests: () => requests.filter((r) => r.kind === "token").length,

    async pay(txid, o = {}) {
      const cob = cobs.get(txid);
      if (!cob) throw new Error(`No cob with txid ${txid} at the PSP`);
      if (cob.status === "REMOVIDA_PELO_PSP" || cob.status === "REMOVIDA_PELO_USUARIO_RECEBEDOR") {
        throw new Error(`The cob ${txid} was removed (${cob.status}): no payer's bank would pay it`);
      }
      const at = o.at ?? now();
      const expiresAt = Date.parse(cob.criacao) + cob.expiracao * 1000;
      if (at.getTime() > expiresAt && !o.afterExpiry) {
        throw new Error(`The cob ${txid} expired at ${new Date(expiresAt).toISOString()}: pass afterExpiry to pay it anyway`);
      }
      const valor = o.amount !== undefined ? valorOf(o.amount) : cob.request.valor.original;
      if (!VALOR_REGEX.test(valor)) throw new Error(`bad amount ${valor}`);
      const e2eid = makeEnd2EndId(payerIspb, at, randomAlnum(11));
      const p: PspPix = { endToEndId: e2eid, txid, valor, chave: cob.request.chave, horario: iso(at), devolucoes: [] };
      if (o.infoPagador) p.infoPagador = o.infoPagador;
      pixes.set(e2eid, p);
      cob.pix.push(e2eid);
      cob.status = "CONCLUIDA";
      await queue({ chave: p.chave, e2eids: [e2eid] }, o.notify);
      return pixView(p);
    },
    pendingWebhooks: () => pending.length,
    async deliverWebhooks() {
      const batch = pending.splice(0, pending.length);
      const out: WebhookDelivery[] = [];
      for (const n of batch) out.push(await deliver(n));
      return out;
    },
    dropWebhooks() {
      return pending.splice(0, pending.length).length;
    },
    settleDevolucao(e2eid, id, status, motivo) {
      const p = pixes.get(e2eid);
      const d = p?.devolucoes.find((x) => x.id === id);
      if (!p || !d) throw new Error(`No devolução ${id} for ${e2eid}`);
      if (d.status !== "EM_PROCESSAMENTO") throw new Error(`The devolução ${id} is already ${d.status}`);
      d.status = status;
      if (status === "DEVOLVIDO") d.horario = { ...d.horario, liquidacao: iso() };
      if (motivo) d.motivo = motivo;
      // The spec: the callback also fires when a refund reaches DEVOLVIDO or NAO_REALIZADO.
      pending.push({ chave: p.chave, e2eids: [e2eid] });
      return devolucaoSchema.parse({ ...d, horario: { ...d.horario } });
    },
    medReturn(e2eid, o = {}) {
      const p = pixes.get(e2eid);
      if (!p) throw new Error(`No Pix ${e2eid} at the PSP`);
      const left = centsOf(p.valor) - p.devolucoes.filter((d) => d.status !== "NAO_REALIZADO").reduce((sum, d) => sum + centsOf(d.valor), 0);
      const amount = o.amount ?? (left > 0 ? left : centsOf(p.valor));
      if (amount <= 0 || (amount > left && !o.beyondPix)) throw new Error(`A MED return of ${amount} exceeds what the Pix ${e2eid} has left (${left})`);
      const at = now();
      const status = o.status ?? "DEVOLVIDO";
      const dev: Devolucao = devolucaoSchema.parse({
        id: `MED${randomAlnum(29)}`,
        rtrId: "D" + makeEnd2EndId(ispb, at, randomAlnum(11)).slice(1),
        valor: valorOf(amount),
        ...(o.natureza === null ? {} : { natureza: o.natureza ?? "MED_FRAUDE" }),
        horario: { solicitacao: iso(at), ...(status === "DEVOLVIDO" ? { liquidacao: iso(at) } : {}) },
        status,
        ...(o.motivo ? { motivo: o.motivo } : {}),
      });
      p.devolucoes.push(dev);
      pending.push({ chave: p.chave, e2eids: [e2eid] });
      return devolucaoSchema.parse({ ...dev, horario: { ...dev.horario } });
    },
    removeCob(txid) {
      const c = cobs.get(txid);
      if (!c) throw new Error(`No cob with txid ${txid}`);
      c.status = "REMOVIDA_PELO_PSP";
    },
    expireTokens() {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    setTokenTtl(seconds) {
      tokenTtl = seconds;
    },
    setAnswerRewrite(fn) {
      rewrite = fn;
    },
    setOmitCopiaECola(on) {
      omitCopiaECola = on;
    },
    setQuirks(q) {
      quirks = { ...q };
    },
    receive(o) {
      const at = o.at ?? now();
      const valor = valorOf(o.amount);
      const e2eid = makeEnd2EndId(payerIspb, at, randomAlnum(11));
      const p: PspPix = { endToEndId: e2eid, txid: "", valor, chave: o.chave ?? keys[0], horario: iso(at), devolucoes: [] };
      if (o.infoPagador) p.infoPagador = o.infoPagador;
      pixes.set(e2eid, p);
      return pixView(p);
    },
    failNext(n, status = 503, only, retryAfter) {
      for (let i = 0; i < n; i++) faults.push({ kind: "fail", status, only, retryAfter });
    },
    hangNext(n = 1, only) {
      for (let i = 0; i < n; i++) faults.push({ kind: "hang", status: 0, only });
    },
    hungRequests() {
      return hung.size;
    },
    releaseHung() {
      for (const res of hung) res.destroy();
    },
    async close() {
      for (const res of hung) res.destroy();
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return psp;
}
