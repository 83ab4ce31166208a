import { brandErrorClass } from "@/lib/core/errors";
/**
 * What can go wrong talking to a PSP's API Pix, as typed codes with a sentence in Portuguese a
 * merchant can act on (the dashboard's "Testar conexão" shows it as is).
 *
 * An error never carries a secret: messages are built from fixed sentences, the PSP's host, HTTP
 * statuses and the PSP's problem body, and the client scrubs its own secrets (client secret, token,
 * key, PKCS#12 password) out of anything the PSP sent back before it reaches an error. The low-level
 * error is kept only as its code (`causeCode`, e.g. "ECONNREFUSED"), never as an object that could
 * hold request options.
 */
import type { Problema } from "./schemas";

export const API_PIX_ERROR_CODES = [
  /** Our own certificate, key or PKCS#12 cannot be loaded (bad PEM, key not matching, wrong password). */
  "client_certificate_invalid",
  /** The PSP refused our client certificate in the TLS handshake. */
  "client_certificate_refused",
  /** The token endpoint refused the client id or secret. */
  "invalid_client_credentials",
  /** The API answered 401 even to a freshly issued token. */
  "unauthorized",
  /** 403 AcessoNegado: the application lacks the scope for the operation. */
  "access_denied",
  /** DNS found no such host, or nothing listens there. */
  "host_unreachable",
  /**
   * The PSP's host is a local name or resolves to a private, loopback, link-local or reserved address
   * (refused before connecting, unless WEBHOOK_ALLOW_PRIVATE_URLS).
   */
  "address_not_allowed",
  /** The PSP's server certificate is not trusted (unknown CA, self-signed, expired). */
  "server_certificate_untrusted",
  /** The PSP's server certificate is for another host name. */
  "server_hostname_mismatch",
  /** No complete answer within the time limit. */
  "timeout",
  /** 5xx. */
  "psp_unavailable",
  /** 404: the charge, Pix, refund or webhook does not exist at the PSP. */
  "not_found",
  /** Another 4xx, usually with a problem body and its violations. */
  "psp_rejected",
  /** The PSP answered something that does not follow the API Pix. */
  "invalid_response",
  /** What we were about to send does not follow the API Pix (caught before anything is sent). */
  "invalid_request",
  /** Any other failure of the connection. */
  "network_error",
] as const;
export type ApiPixErrorCode = (typeof API_PIX_ERROR_CODES)[number];

/** Failures that may pass by themselves: worth trying again later (reconciliation does). */
// address_not_allowed too: nothing was sent, and the PSP's DNS may be put right.
const RETRYABLE: ReadonlySet<ApiPixErrorCode> = new Set(["timeout", "psp_unavailable", "host_unreachable", "address_not_allowed", "network_error"]);

export type ApiPixErrorInit = {
  code: ApiPixErrorCode;
  message: string;
  /** "PUT /cob/{txid}", "POST token", ... */
  operation: string;
  /** host[:port] of the PSP. */
  host: string;
  httpStatus?: number;
  problem?: Problema;
  /** How long the PSP asked to wait (its Retry-After on a 429 or 5xx), capped; when it said. */
  retryAfterMs?: number;
  /** The low-level code (Node/OpenSSL error code or OAuth `error`), when there was one. */
  causeCode?: string;
};

export class ApiPixError extends Error {
  readonly code: ApiPixErrorCode;
  readonly operation: string;
  readonly host: string;
  readonly httpStatus?: number;
  readonly problem?: Problema;
  readonly causeCode?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(init: ApiPixErrorInit) {
    super(init.message);
    this.name = "ApiPixError";
    this.code = init.code;
    this.operation = init.operation;
    this.host = init.host;
    this.httpStatus = init.httpStatus;
    this.problem = init.problem;
    this.causeCode = init.causeCode;
    this.retryable = RETRYABLE.has(init.code);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  toJSON() {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      operation: this.operation,
      host: this.host,
      httpStatus: this.httpStatus,
      problem: this.problem,
      causeCode: this.causeCode,
      retryable: this.retryable,
    };
  }
}
brandErrorClass(ApiPixError, "ApiPixError");

export function isApiPixError(e: unknown): e is ApiPixError {
  return e instanceof ApiPixError;
}

/** Replaces every occurrence of each secret (of 4 characters or more) in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4 && out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out;
}

/** A problem body with every text field scrubbed of the given secrets. */
export function redactProblem(p: Problema, secrets: readonly string[]): Problema {
  const r = (s: string | undefined) => (s === undefined ? undefined : redact(s, secrets));
  return {
    ...p,
    type: redact(p.type, secrets),
    title: redact(p.title, secrets),
    detail: r(p.detail),
    correlationId: r(p.correlationId),
    violacoes: p.violacoes?.map((v) => ({ ...v, razao: r(v.razao), propriedade: r(v.propriedade), valor: r(v.valor) })),
  };
}

/** "Cobrança inválida: A requisição ... Violações: O campo cob.valor.original ...; ..." */
export function describeProblem(p: Problema): string {
  const title = p.title.trim().replace(/\.$/, "");
  const detail = p.detail?.trim() ?? "";
  let text = detail !== "" && detail.replace(/\.$/, "") !== title ? `${title}: ${detail}` : title;
  const violations = (p.violacoes ?? [])
    .map((v) => v.razao ?? v.propriedade)
    .filter((v): v is string => typeof v === "string" && v.trim() !== "");
  if (violations.length > 0) text += ` Violações: ${violations.slice(0, 10).join("; ")}`;
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
}

// ---- classification of connection failures ---------------------------------------------------------

const UNREACHABLE = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
const SERVER_UNTRUSTED = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_REJECTED",
  "INVALID_CA",
]);
/** TLS alerts a server sends when it does not accept the client's certificate. */
const CLIENT_CERT_ALERT =
  /ALERT_(BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED|HANDSHAKE_FAILURE)$/;
const RESET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

export type ConnectionPhase = {
  /** The TLS handshake completed from our side. */
  secureConnected: boolean;
  /** Any byte of the response arrived. */
  gotResponse: boolean;
  /** A client certificate was presented. */
  presentedClientCertificate: boolean;
};

/**
 * Sorts a Node/OpenSSL connection error. A server that rejects a client certificate either sends a
 * TLS alert (nginx, load balancers: "bad certificate", "unknown ca", "certificate required") or, as
 * Node's own TLS server does under TLS 1.3, completes the handshake and then drops the connection
 * before answering; the second is told apart from a plain reset by when it happens.
 */
export function classifyConnectionError(
  causeCode: string | undefined,
  phase: ConnectionPhase,
): { code: ApiPixErrorCode; detail: "dns" | "refused" | "expired" | "alert" | "dropped" | "other" } {
  const c = causeCode ?? "";
  if (c === "ENOTFOUND" || c === "EAI_AGAIN") return { code: "host_unreachable", detail: "dns" };
  if (UNREACHABLE.has(c)) return { code: "host_unreachable", detail: "refused" };
  if (c === "ERR_TLS_CERT_ALTNAME_INVALID") return { code: "server_hostname_mismatch", detail: "other" };
  if (c === "CERT_HAS_EXPIRED" || c === "CERT_NOT_YET_VALID") return { code: "server_certificate_untrusted", detail: "expired" };
  if (SERVER_UNTRUSTED.has(c)) return { code: "server_certificate_untrusted", detail: "other" };
  if (CLIENT_CERT_ALERT.test(c)) return { code: "client_certificate_refused", detail: "alert" };
  if ((RESET.has(c) || c === "") && phase.presentedClientCertificate && phase.secureConnected && !phase.gotResponse) {
    return { code: "client_certificate_refused", detail: "dropped" };
  }
  return { code: "network_error", detail: "other" };
}

export const MESSAGES = {
  clientCertificateInvalid: () =>
    "Não foi possível carregar o certificado do cliente: confira se o certificado e a chave privada (PEM) formam um par, " +
    "se os arquivos estão completos, ou se a senha do arquivo PKCS#12 (.p12/.pfx) está correta.",
  /** The certificate opened (no password problem) but does not make a client certificate. */
  clientCertificateUnusable: () =>
    "Não foi possível carregar o certificado do cliente: confira se o certificado e a chave privada formam um par " +
    "(a chave é a do certificado enviado) e se os arquivos estão completos.",
  pkcs12WrongPassword: () =>
    "A senha do certificado está incorreta: o arquivo PKCS#12 (.p12/.pfx) não abre com a senha informada em “Senha do certificado”.",
  pkcs12NeedsPassword: () =>
    "O arquivo PKCS#12 (.p12/.pfx) é protegido por senha: informe-a em “Senha do certificado”.",
  pkcs12Unsupported: () =>
    "O arquivo PKCS#12 (.p12/.pfx) usa uma criptografia que não é suportada, e por isso não pôde ser lido (não é a senha). " +
    "Converta-o para PEM com `openssl pkcs12 -legacy -in certificado.p12 -nodes -out cert-e-chave.pem` " +
    "e envie o arquivo .pem gerado (ele contém o certificado e a chave) no lugar do .p12/.pfx.",
  notACertificateFile: () =>
    "O arquivo enviado não é um certificado PEM (.pem/.crt) nem um PKCS#12 (.p12/.pfx) válido. " +
    "Se o certificado está em DER (.cer/.der), converta-o para PEM com `openssl x509 -inform der -in certificado.cer -out certificado.pem`.",
  certificateTooManyIterations: (max: number) =>
    `O arquivo do certificado pede mais de ${max.toLocaleString("pt-BR")} iterações para abrir a chave, além do que o servidor aceita (cada abertura ocuparia o servidor por muito tempo). ` +
    "Exporte-o de novo com o padrão (o `openssl pkcs12 -export` usa 2.048) ou envie o certificado e a chave em PEM, sem senha ou com uma senha de iterações padrão.",
  clientKeyWrongPassword: () =>
    "A senha do certificado está incorreta: a chave privada (PEM) é protegida por senha e não abre com a senha informada em “Senha do certificado”.",
  clientKeyNeedsPassword: () =>
    "A chave privada (PEM) é protegida por senha: informe-a em “Senha do certificado”.",
  clientCertificateRefused: (host: string, how: "alert" | "dropped") =>
    `O PSP (${host}) recusou o certificado do cliente na conexão TLS` +
    (how === "dropped" ? " (encerrou a conexão sem responder)" : "") +
    ". Confira se é o certificado emitido por esse PSP para esta aplicação (e não o de outro ambiente, como homologação), e se ainda está válido.",
  invalidClientCredentials: (host: string, oauthError?: string) =>
    `O PSP (${host}) recusou o client id ou o client secret ao emitir o token de acesso` +
    (oauthError ? ` (${oauthError})` : "") +
    ". Confira as credenciais da aplicação no portal do PSP.",
  unauthorized: (host: string, operation: string) =>
    `O PSP (${host}) não aceitou o token de acesso em ${operation}, mesmo recém-emitido. Confira se a aplicação está ativa no PSP.`,
  accessDenied: (host: string, operation: string, problem?: string) =>
    `O PSP (${host}) negou acesso a ${operation}${problem ? ` (${problem})` : ""}. ` +
    "Confira os escopos liberados para a aplicação no portal do PSP (cob.write, cob.read, pix.write, pix.read, webhook.write e webhook.read) " +
    "e o campo “Escopos” da configuração.",
  invalidScope: (host: string, scope: string) =>
    `O PSP (${host}) recusou os escopos pedidos ao emitir o token (invalid_scope): “${scope || "(nenhum)"}”. ` +
    "Libere esses escopos para a aplicação no portal do PSP, ou ajuste o campo “Escopos” da configuração para os que ela tem.",
  hostUnreachable: (host: string, detail: "dns" | "refused" | string) =>
    detail === "dns"
      ? `O endereço do PSP (${host}) não foi encontrado (DNS). Confira a URL.`
      : `Não foi possível conectar ao PSP em ${host}: a conexão foi recusada ou o endereço está inacessível. Confira a URL e a porta.`,
  addressNotAllowed: (host: string) =>
    `O endereço do PSP (${host}) não é permitido: aponta para uma rede privada ou local (loopback, rede interna, link-local), ` +
    "e o Arara não se conecta a esses endereços. Confira a URL: a API de um PSP tem um endereço público.",
  serverCertificateUntrusted: (host: string, detail: string) =>
    detail === "expired"
      ? `O certificado do servidor do PSP (${host}) está expirado ou ainda não é válido.`
      : `O certificado do servidor do PSP (${host}) não é confiável: não foi emitido por uma autoridade certificadora reconhecida ` +
        "nem pela CA do PSP informada na configuração. Se o PSP usa uma CA própria, envie o certificado dela.",
  serverHostnameMismatch: (host: string) =>
    `O certificado do servidor não corresponde ao endereço ${host}: o certificado do PSP vale para outro nome. Confira a URL.`,
  timeout: (host: string, operation: string, ms: number) =>
    `O PSP (${host}) não respondeu a ${operation} em ${Math.round(ms / 100) / 10} s. Tente de novo em instantes.`,
  pspUnavailable: (host: string, operation: string, status: number, problem?: string) =>
    `O PSP (${host}) está com problemas: respondeu ${status} a ${operation}${problem ? ` (${problem})` : ""}. Tente de novo em instantes.`,
  notFound: (operation: string, problem?: string) =>
    `O PSP não encontrou o recurso de ${operation}${problem ? `: ${problem}` : "."}`,
  pspRejected: (operation: string, status: number, problem?: string) =>
    `O PSP recusou ${operation} (${status})${problem ? `: ${problem}` : "."}`,
  invalidResponse: (operation: string, what: string) => `A resposta do PSP a ${operation} não segue a API Pix: ${what}`,
  invalidRequest: (operation: string, what: string) => `Requisição inválida para ${operation}, não enviada ao PSP: ${what}`,
  networkError: (host: string, causeCode?: string) =>
    `Falha de comunicação com o PSP (${host})${causeCode ? `: ${causeCode}` : ""}. Tente de novo em instantes.`,
};
