import http from "node:http";
import https from "node:https";
import { pinnedLookup, type PinnedAddress } from "./ssrf";

/** What one HTTP attempt gave, as written to webhook_attempts. */
export type PostResult = {
  httpStatus: number | null;
  durationMs: number;
  success: boolean;
  error: string | null;
  responseExcerpt: string | null;
};

export const EXCERPT_CHARS = 500;
// Enough of the body to fill the excerpt; a receiver that sends more gets its connection closed.
const MAX_READ_BYTES = 64 * 1024;

// Keep-alive pools shared by every delivery of the process: a merchant's endpoint gets a few warm
// connections instead of a TCP (and TLS) handshake per event.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo" }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: "lifo" }),
};

function errorText(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return (code && !e.message.includes(code) ? `${code}: ${e.message}` : e.message).slice(0, 500);
  }
  return String(e).slice(0, 500);
}

/**
 * POSTs `body` and reads the answer, all within `timeoutMs` (connect, send, response and body).
 * Never throws: every outcome is a PostResult. Redirects are not followed (a 3xx is a failure), so a
 * receiver cannot bounce the request to an address the SSRF check did not see.
 */
export function postJson(
  url: URL,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; pinned: PinnedAddress | null },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    const isHttps = url.protocol === "https:";
    const req = (isHttps ? https : http).request(url, {
      method: "POST",
      agent: isHttps ? agents.https : agents.http,
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "Arara-Webhooks/1.0",
        ...headers,
      },
      ...(opts.pinned ? { lookup: pinnedLookup(opts.pinned) } : {}),
    });
    const timer = setTimeout(() => {
      const err = new Error(`timeout: no complete response within ${opts.timeoutMs} ms`);
      finish({ httpStatus: null, success: false, error: err.message, responseExcerpt: null });
      req.destroy(err);
    }, opts.timeoutMs);
    req.on("error", (e) => finish({ httpStatus: null, success: false, error: errorText(e), responseExcerpt: null }));
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (error: string | null) => {
        const text = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
        const success = error === null && status >= 200 && status < 300;
        const why = error ?? (success ? null : `the receiver answered HTTP ${status}; only 2xx counts as delivered`);
        finish({ httpStatus: status, success, error: why, responseExcerpt: text || null });
      };
      res.on("data", (c: Buffer) => {
        if (size < MAX_READ_BYTES) chunks.push(c);
        size += c.length;
        if (size >= MAX_READ_BYTES) {
          done(null);
          res.destroy();
        }
      });
      res.on("end", () => done(null));
      res.on("error", (e) => done(errorText(e)));
      res.on("aborted", () => done("the receiver closed the connection before the response ended"));
    });
    req.end(body);
  });
}
