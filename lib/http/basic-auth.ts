/**
 * Reads HTTP Basic credentials the way real clients of this gateway family send them:
 * base64("sk:"), base64("sk:x"), base64("pk:sk"), base64("sk:pk"), base64("sk") with no colon.
 * Whichever part starts with sk_ is the secret key; the other part, if it is a pk_, must belong to
 * the same account (checked by the caller).
 */
export type BasicCredentials = { secretKey: string | null; publicKey: string | null };

export function parseBasicAuth(header: string | null): BasicCredentials | null {
  if (!header) return null;
  const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  let decoded: string;
  try {
    decoded = Buffer.from(m[1].replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  } catch {
    return null;
  }
  const idx = decoded.indexOf(":");
  const parts = (idx === -1 ? [decoded] : [decoded.slice(0, idx), decoded.slice(idx + 1)]).map((p) => p.trim());
  const secret = parts.filter((p) => p.startsWith("sk_"));
  const publics = parts.filter((p) => p.startsWith("pk_"));
  if (secret.length !== 1) return { secretKey: null, publicKey: publics[0] ?? null };
  return { secretKey: secret[0], publicKey: publics[0] ?? null };
}
