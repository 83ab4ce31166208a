import pino from "pino";
import { getEnv } from "@/lib/env";

/**
 * Structured JSON logs. Anything that may carry a key, a token or card data is redacted by path;
 * callers never log request bodies of card-token or auth headers in the first place.
 */
const REDACT = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "secretKey",
  "*.secretKey",
  "password",
  "*.password",
  "token",
  "*.token",
  "hash",
  "*.hash",
  "card.hash",
  "number",
  "card.number",
  "*.number",
  "cvv",
  "*.cvv",
  "card.cvv",
  "webhookSecret",
  "*.webhookSecret",
  // Personal data and whatever a request carried: never logged as fields.
  "body",
  "*.body",
  "query",
  "*.query",
  "customer",
  "*.customer",
  "email",
  "*.email",
  "document",
  "*.document",
];

type Logger = pino.Logger;
const g = globalThis as unknown as { __araraLogger?: Logger };

/** The app's logger configuration (redaction included) writing to `destination` (stdout by default). */
export function createLogger(opts: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level ?? getEnv().logLevel,
    base: { service: "arara" },
    redact: { paths: REDACT, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, opts.destination ?? stdoutDestination());
}

/**
 * stdout, written asynchronously and in batches: a request's log line is queued, and the queue is
 * written when it reaches 8 kB or every 50 ms, whichever comes first, instead of a write per line (a
 * syscall on the request's path: ~4-6 % of the CPU of a request under load, tests/bench/PROFILE.md).
 * An idle server's lines still appear within 50 ms. pino flushes what is queued synchronously when
 * the process exits; the clean shutdown also calls flushLogger().
 */
const LOG_BATCH_BYTES = 8192;
const LOG_FLUSH_MS = 50;

function stdoutDestination(): pino.DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  const timer = setInterval(() => {
    try {
      dest.flush();
    } catch {
      /* nothing queued, or a write in flight that carries it */
    }
  }, LOG_FLUSH_MS);
  timer.unref();
  return dest;
}

/** Writes out the log lines still queued (the clean shutdown calls it before exiting). */
export function flushLogger(): void {
  const logger = g.__araraLogger;
  if (!logger) return;
  try {
    logger.flush();
  } catch {
    /* a destination that cannot flush (a test's stream) has nothing queued */
  }
}

export function getLogger(): Logger {
  if (!g.__araraLogger) g.__araraLogger = createLogger();
  return g.__araraLogger;
}

/** Replaces the process's logger (tests read what the app logs; `null` goes back to the default). */
export function setLogger(logger: Logger | null): void {
  g.__araraLogger = logger ?? undefined;
}

/** The PSP webhook's token in its URL (`/api/v1/psp/api-pix/<token>/pix`, and /v1's): it is the route's only credential. */
const PSP_TOKEN_IN_PATH = /(\/psp\/api-pix\/)[^/?#\s"'`]+/g;

/**
 * A request's path as the request log writes it: a credential carried in the path (the PSP webhook's
 * token) is cut out. One `includes` for every other path.
 */
export function pathForLog(pathname: string): string {
  // A path written with escapes (`/api/v1/%70sp/...`) is logged as it reads.
  const path = pathname.includes("%") ? decodedPath(pathname) : pathname;
  return path.includes("/psp/") ? path.replace(PSP_TOKEN_IN_PATH, "$1[redacted]") : path;
}

function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname.replace(/%[0-9a-f]{2}/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
  }
}

const EMAIL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+/g;

/**
 * Removes anything shaped like a secret, a card number, a token or personal data from free text
 * (error messages and stacks) before logging. An error's text can quote the request: a failed query
 * lists its parameters (the filters' e-mail and CPF), a URL its query string, a JSON or constraint
 * error a piece of the body. Those parts are cut whole; e-mails, CPFs, CNPJs and phone numbers left
 * anywhere else are masked.
 */
export function scrub(text: string): string {
  return (
    text
      .replace(PSP_TOKEN_IN_PATH, "$1[redacted]")
      .replace(/\b(sk|pk)_(test|live)_[A-Za-z0-9]+/g, "$1_$2_[redacted]")
      .replace(/whsec_[A-Za-z0-9+/=]+/g, "whsec_[redacted]")
      // drizzle: "Failed query: <sql>\nparams: <the values>"; postgres: "Key (email)=(<value>) already exists".
      .replace(/\bparams:[^\n]*/g, "params: [redacted]")
      .replace(/(\bKey \(.*?\)=\().*?(?=\) (?:already exists|conflicts with|is not present|is still referenced))/g, "$1[redacted]")
      // JSON.parse: `Unexpected token 'x', "<a piece of the body>"... is not valid JSON`.
      .replace(/"[^\n]*"(\.\.\.)? is not valid JSON/g, "[redacted] is not valid JSON")
      // Query strings of URLs and paths ("?email=...&documentNumber=...").
      .replace(/((?:[a-z][a-z0-9+.-]*:\/\/|\/)[^\s?#"'`]*)\?[^\s#"'`]*/gi, "$1?[redacted]")
      .replace(EMAIL, "[redacted-email]")
      .replace(/\b\d{13,19}\b/g, "[redacted-pan]")
      .replace(/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b|\b\d{11}\b|\b[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}\b/g, "[redacted-document]")
      .replace(/(?:\(\d{2}\) ?|\b\d{2} )9?\d{4}-\d{4}\b/g, "[redacted-phone]")
  );
}
