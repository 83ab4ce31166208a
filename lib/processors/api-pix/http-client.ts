/**
 * One JSON call to a PSP on an OAuthSession: the bearer token (a 401 drops it and the call is tried
 * once more with a new one), the answer checked against the operation's schema, and every failure an
 * ApiPixError with secrets redacted. No other retries: a 5xx or a timeout comes back with `retryable`
 * set, for the caller to decide.
 */
import { z } from "zod";
import { ApiPixError, describeProblem, MESSAGES, redact, redactProblem } from "./errors";
import { issuesText, OAuthSession } from "./oauth-session";
import { problemaSchema, type Problema } from "./schemas";
import { send, type RawResponse } from "./transport";

/** The error body of Efí's own endpoints (not a problem+json). */
const pspErrorSchema = z.object({ nome: z.string().max(100), mensagem: z.string().max(500) });

/** A Retry-After longer than this is read as this: a PSP's answer never parks a charge for days. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Retry-After (RFC 9110: delay-seconds or an HTTP date) in ms, at most an hour; undefined when absent or unreadable. */
export function retryAfterMsOf(header: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!v) return undefined;
  let ms: number;
  if (/^\d{1,10}$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (!Number.isFinite(at) || !/[a-z]/i.test(v)) return undefined;
    ms = at - nowMs;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

export type Operation<S extends z.ZodType | null> = {
  method: "GET" | "PUT" | "PATCH";
  /** "/cob/{txid}": names the operation in errors and logs. */
  template: string;
  path: string;
  /** Resolve `path` against the host instead of the API's base (Efí's /v3/gn/... beside its /v2 API Pix). */
  fromHost?: boolean;
  query?: URLSearchParams;
  body?: unknown;
  schema: S;
};

export class PspHttpClient extends OAuthSession {
  protected async call<S extends z.ZodType>(op: Operation<S>): Promise<z.infer<S>>;
  protected async call(op: Operation<null>): Promise<undefined>;
  protected async call(op: Operation<z.ZodType | null>): Promise<unknown> {
    const operation = `${op.method} ${op.template}`;
    const url = this.urlOf(op);
    const body = op.body === undefined ? undefined : JSON.stringify(op.body);
    try {
      for (let attempt = 1; ; attempt++) {
        const token = await this.accessToken();
        const started = this.now();
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
        // "body" client auth (a certificate-bound client id, as Sicoob's): the id goes on every call too.
        if (this.clientAuth === "body") headers.client_id = this.clientId;
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await send(this.agent, { method: op.method, url, headers, body, timeoutMs: this.timeoutMs, operation, host: this.host, resolver: this.resolver });
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

  /**
   * The operation's URL: its path after the base's path, and the base's own query parameters (a
   * developer key some PSPs ask on every call, as Banco do Brasil's `gw-dev-app-key`) before the
   * operation's.
   */
  protected urlOf(op: Operation<z.ZodType | null>): URL {
    const url = new URL(this.base.origin);
    url.pathname = (op.fromHost ? "" : this.base.pathname.replace(/\/+$/, "")) + op.path;
    const query = new URLSearchParams(this.base.search);
    for (const [k, v] of op.query ?? []) query.append(k, v);
    url.search = query.toString();
    return url;
  }

  protected handle(op: Operation<z.ZodType | null>, operation: string, res: RawResponse): unknown {
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
    // Efí's own endpoints (Pix Envio) answer errors as `{ nome, mensagem }` instead of a problem body.
    const plain = problem ? undefined : pspErrorSchema.safeParse(this.json(res));
    const named = plain?.success ? plain.data : undefined;
    const text = problem ? describeProblem(problem) : named ? redact(`${named.nome}: ${named.mensagem}`, this.secrets) : undefined;
    const causeCode = named && /^[a-z_]{1,60}$/.test(named.nome) ? named.nome : undefined;
    const base = { operation, host: this.host, httpStatus: s, problem, causeCode };
    if (s === 401) return this.fail({ ...base, code: "unauthorized", message: MESSAGES.unauthorized(this.host, operation) });
    if (s === 403) return this.fail({ ...base, code: "access_denied", message: MESSAGES.accessDenied(this.host, operation, text) });
    if (s === 404) return this.fail({ ...base, code: "not_found", message: MESSAGES.notFound(operation, text) });
    // 408 (timed out), 425 (too early), 429 (rate limited): the PSP did not decide; worth trying again.
    if (s >= 500 || s === 408 || s === 425 || s === 429) {
      const retryAfterMs = retryAfterMsOf(res.headers["retry-after"], this.now());
      return this.fail({ ...base, code: "psp_unavailable", message: MESSAGES.pspUnavailable(this.host, operation, s, text), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
    }
    return this.fail({ ...base, code: "psp_rejected", message: MESSAGES.pspRejected(operation, s, text) });
  }

  protected fail(init: ConstructorParameters<typeof ApiPixError>[0]): never {
    throw new ApiPixError({ ...init, message: redact(init.message, this.secrets) });
  }

  protected problem(res: RawResponse): Problema | undefined {
    const parsed = problemaSchema.safeParse(this.json(res));
    return parsed.success ? redactProblem(parsed.data, this.secrets) : undefined;
  }

  protected checkInput(operation: string, schema: z.ZodType, value: unknown, what: string): void {
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

}
