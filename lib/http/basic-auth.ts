/**
 * Reads HTTP Basic credentials the way real clients of this gateway family send them:
 * base64("sk:"), base64("sk:x"), base64("pk:sk"), base64("sk:pk"), base64("sk") with no colon, and
 * the key itself not base64-encoded ("Basic sk_...", "Basic sk_...:x"), as some of the family's
 * published curl examples write it.
 * Whichever part starts with sk_ is the secret key. The other part is ignored unless it is a key:
 * a pk_ must belong to the same account (checked by the caller), a second sk_ is refused.
 */
export type BasicCredentials = { secretKey: string | null; publicKey: string | null };

/**
 * The key not base64-encoded. No base64 of credentials can start with "sk_": the first character of
 * base64 encodes the top six bits of the first byte, and "s" (44) there would need a byte of 0xB0 or
 * more, which no text credential starts with. So the two forms never overlap.
 */
const RAW_SECRET = /^\s*basic\s+(sk_[A-Za-z0-9_]+(?::\S*)?)\s*$/i;
const ENCODED = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i;

export function parseBasicAuth(header: string | null): BasicCredentials | null {
  if (!header) return null;
  let decoded: string;
  const raw = RAW_SECRET.exec(header);
  if (raw && raw[1].startsWith("sk_")) decoded = raw[1];
  else {
    const m = ENCODED.exec(header);
    if (!m) return null;
    decoded = Buffer.from(m[1].replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  }
  const idx = decoded.indexOf(":");
  const parts = (idx === -1 ? [decoded] : [decoded.slice(0, idx), decoded.slice(idx + 1)]).map((p) => p.trim());
  const secret = parts.filter((p) => p.startsWith("sk_"));
  const publics = parts.filter((p) => p.startsWith("pk_"));
  if (secret.length !== 1) return { secretKey: null, publicKey: publics[0] ?? null };
  return { secretKey: secret[0], publicKey: publics[0] ?? null };
}
