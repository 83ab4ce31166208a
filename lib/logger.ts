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
];

type Logger = pino.Logger;
const g = globalThis as unknown as { __araraLogger?: Logger };

export function getLogger(): Logger {
  if (!g.__araraLogger) {
    g.__araraLogger = pino({
      level: getEnv().logLevel,
      base: { service: "arara" },
      redact: { paths: REDACT, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    });
  }
  return g.__araraLogger;
}

/** Removes anything shaped like a secret, a card number or a token from free text before logging. */
export function scrub(text: string): string {
  return text
    .replace(/\b(sk|pk)_(test|live)_[A-Za-z0-9]+/g, "$1_$2_[redacted]")
    .replace(/whsec_[A-Za-z0-9+/=]+/g, "whsec_[redacted]")
    .replace(/\b\d{13,19}\b/g, "[redacted-pan]");
}
