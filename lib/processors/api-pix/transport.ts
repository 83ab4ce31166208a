/**
 * HTTPS with mutual TLS, on Node's own TLS stack: an `https.Agent` holding the client certificate
 * (PEM pair or PKCS#12) and the PSP's CA when it has one of its own. One request at a time goes
 * through `send`, which enforces a deadline over the whole exchange (connect, handshake, response)
 * and turns every failure into an ApiPixError. The merchant chooses the PSP's URLs, so every call is
 * checked as a postback delivery is (lib/webhooks/ssrf.ts): the host is resolved before the call and
 * refused when it is a private, loopback or link-local address (unless WEBHOOK_ALLOW_PRIVATE_URLS),
 * and a new connection goes to the address that was checked (a rebinding answer cannot swap it).
 */
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { LookupFunction } from "node:net";
import tls from "node:tls";
import { checkUrlHost, pinnedLookup, type Resolver } from "@/lib/webhooks/ssrf";
import { ApiPixError, classifyConnectionError, MESSAGES } from "./errors";

export type ClientCertificate =
  | { certPem: string; keyPem: string; keyPassphrase?: string }
  | { pfx: Buffer | Uint8Array; passphrase?: string };

export type TlsSettings = {
  certificate: ClientCertificate;
  /** PEM of the CA(s) that issued the PSP's server certificate; the system's roots when absent. */
  caPem?: string;
};

/** Options of tls.createSecureContext for these settings (never logged, never part of an error). */
function secureOptions(settings: TlsSettings): tls.SecureContextOptions {
  const c = settings.certificate;
  const base: tls.SecureContextOptions = settings.caPem ? { ca: settings.caPem } : {};
  if ("pfx" in c) return { ...base, pfx: Buffer.from(c.pfx), passphrase: c.passphrase ?? "" };
  return { ...base, cert: c.certPem, key: c.keyPem, passphrase: c.keyPassphrase };
}

/**
 * The agent for one PSP configuration. The certificate is loaded once here, so a bad PEM or a wrong
 * PKCS#12 password is reported before any connection (Node would otherwise throw from deep inside
 * the first request).
 */
export function createMtlsAgent(settings: TlsSettings, host: string): https.Agent {
  const options = secureOptions(settings);
  try {
    tls.createSecureContext(options);
  } catch (e) {
    throw new ApiPixError({
      code: "client_certificate_invalid",
      message: MESSAGES.clientCertificateInvalid(),
      operation: "load client certificate",
      host,
      causeCode: opensslCode(e),
    });
  }
  return new https.Agent({ ...options, keepAlive: true, maxSockets: 8, maxFreeSockets: 2 });
}

/** A short, secret-free description of a certificate-loading failure ("mac verify failure"). */
function opensslCode(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const code = (e as NodeJS.ErrnoException).code;
  if (typeof code === "string") return code;
  return /^[a-z0-9 _-]{1,60}$/i.test(e.message) ? e.message : undefined;
}

export type RawResponse = { status: number; headers: IncomingHttpHeaders; body: string };

export type SendInput = {
  method: "GET" | "PUT" | "PATCH" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** For errors: "PUT /cob/{txid}". */
  operation: string;
  host: string;
  /** Tests: the DNS resolver of the address check (the system's by default). */
  resolver?: Resolver;
};

const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

class Deadline extends Error {}

type Attempt = { ok: true; response: RawResponse } | { ok: false; error: ApiPixError; staleSocket: boolean };

function sendOnce(agent: https.Agent, input: SendInput, lookup: LookupFunction | undefined): Promise<Attempt> {
  return new Promise((resolve) => {
    const phase = { secureConnected: false, gotResponse: false, presentedClientCertificate: true };
    let reused = false;
    let settled = false;
    let req: ReturnType<typeof https.request> | undefined;
    const finish = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    // One deadline over the whole exchange: connection, TLS handshake, request and response.
    const timer = setTimeout(() => req?.destroy(new Deadline()), input.timeoutMs);
    const headers: Record<string, string> = { ...input.headers };
    if (input.body !== undefined) headers["content-length"] = String(Buffer.byteLength(input.body));

    try {
      req = https.request(input.url, { method: input.method, headers, agent, ...(lookup ? { lookup } : {}) }, onResponse);
    } catch (e) {
      // Invalid request options (a header with a control character...): nothing was sent.
      const causeCode = typeof (e as NodeJS.ErrnoException)?.code === "string" ? (e as NodeJS.ErrnoException).code : undefined;
      finish({
        ok: false,
        staleSocket: false,
        error: new ApiPixError({ code: "network_error", message: MESSAGES.networkError(input.host, causeCode), operation: input.operation, host: input.host, causeCode }),
      });
      return;
    }
    function onResponse(res: import("node:http").IncomingMessage) {
      phase.gotResponse = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          res.destroy();
          finish({
            ok: false,
            staleSocket: false,
            error: new ApiPixError({
              code: "invalid_response",
              message: MESSAGES.invalidResponse(input.operation, "answer larger than 4 MB"),
              operation: input.operation,
              host: input.host,
              httpStatus: res.statusCode,
            }),
          });
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () =>
        finish({ ok: true, response: { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") } }),
      );
      res.on("error", (e) => onError(e));
    }

    const request = req;
    request.on("socket", (socket) => {
      reused = request.reusedSocket;
      if (reused) {
        phase.secureConnected = true;
        return;
      }
      socket.once("secureConnect", () => {
        phase.secureConnected = true;
      });
    });

    function onError(e: unknown) {
      if (e instanceof Deadline) {
        finish({
          ok: false,
          staleSocket: false,
          error: new ApiPixError({
            code: "timeout",
            message: MESSAGES.timeout(input.host, input.operation, input.timeoutMs),
            operation: input.operation,
            host: input.host,
          }),
        });
        return;
      }
      const causeCode = typeof (e as NodeJS.ErrnoException)?.code === "string" ? (e as NodeJS.ErrnoException).code : undefined;
      // A kept-alive connection the server closed meanwhile: nothing reached the PSP, try a fresh one.
      const stale = reused && !phase.gotResponse && (causeCode === "ECONNRESET" || causeCode === "EPIPE");
      const kind = classifyConnectionError(causeCode, phase);
      let message: string;
      switch (kind.code) {
        case "host_unreachable":
          message = MESSAGES.hostUnreachable(input.host, kind.detail);
          break;
        case "server_hostname_mismatch":
          message = MESSAGES.serverHostnameMismatch(input.host);
          break;
        case "server_certificate_untrusted":
          message = MESSAGES.serverCertificateUntrusted(input.host, kind.detail);
          break;
        case "client_certificate_refused":
          message = MESSAGES.clientCertificateRefused(input.host, kind.detail === "alert" ? "alert" : "dropped");
          break;
        default:
          message = MESSAGES.networkError(input.host, causeCode);
      }
      finish({
        ok: false,
        staleSocket: stale,
        error: new ApiPixError({ code: kind.code, message, operation: input.operation, host: input.host, causeCode }),
      });
    }

    request.on("error", onError);
    request.end(input.body);
  });
}

/** One HTTP exchange; connection failures come back as ApiPixError (HTTP statuses are the caller's). */
export async function send(agent: https.Agent, input: SendInput): Promise<RawResponse> {
  const target = await checkUrlHost(input.url, input.resolver);
  if (!target.ok) {
    // A refused address gets one message whatever listens there: no connection is attempted, so
    // "Testar conexão" cannot tell an open port of the private network from a closed one.
    throw new ApiPixError(
      target.refused
        ? { code: "address_not_allowed", message: MESSAGES.addressNotAllowed(input.host), operation: input.operation, host: input.host }
        : { code: "host_unreachable", message: MESSAGES.hostUnreachable(input.host, "dns"), operation: input.operation, host: input.host, causeCode: "ENOTFOUND" },
    );
  }
  const lookup = target.pinned ? pinnedLookup(target.pinned) : undefined;
  let attempt = await sendOnce(agent, input, lookup);
  if (!attempt.ok && attempt.staleSocket) attempt = await sendOnce(agent, input, lookup);
  if (!attempt.ok) throw attempt.error;
  return attempt.response;
}
