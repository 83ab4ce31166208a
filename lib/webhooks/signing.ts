import { createHmac } from "node:crypto";

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signature: HMAC-SHA256 over
 * "<webhook-id>.<webhook-timestamp>.<body>", keyed with the bytes of the secret's base64 part after
 * `whsec_`, sent as `v1,<base64>`. Any Standard Webhooks library verifies it with the `whsec_` secret.
 */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of a signed delivery. The timestamp is the attempt's time, so each attempt is signed anew. */
export function signedHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": webhookSignature(secret, id, timestamp, body),
  };
}
