/**
 * Reads HTTP Basic credentials the way real clients of this gateway family send them (and `Bearer sk_...`, below):
 * base64("sk:"), base64("sk:x"), base64("pk:sk"), base64("sk:pk"), base64("sk") with no colon, and
 * the key itself not base64-encoded ("Basic sk_...", "Basic sk_...:x"), as some of the family's
 * published curl examples write it.
 * Whichever part starts with sk_ is the secret key. The other part is ignored unless it is a key:
 * a pk_ must belong to the same account (checked by the caller), a second sk_ is refused.
 */
export type BasicCredentials = {
  secretKey: string | null;
  publicKey: string | null;
  /** How many sk_ parts the credentials held: 2 means two secret keys (refused, with a message saying so). */
  secretKeys: number;
};

/**
 * The key not base64-encoded. No base64 of credentials can start with "sk_": the first character of
 * base64 encodes the top six bits of the first byte, and "s" (44) there would need a byte of 0xB0 or
 * more, which no text credential starts with. So the two forms never overlap.
 */
const RAW_SECRET = /^\s*basic\s+(sk_[A-Za-z0-9_]+(?::\S*)?)\s*$/i;
const ENCODED = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i;

/** `Authorization: Bearer sk_...` (any case of the scheme): the secret key alone, as an OAuth-style client sends it. */
const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/**
 * The credentials of an Authorization header: HTTP Basic in every form above, or `Bearer <key>`. A
 * Bearer secret key is then exactly what the same key in Basic is (the caller looks it up, compares
 * it and counts failures the one way); a Bearer public key is a public key alone. Null when the
 * header is neither scheme.
 */
export function parseBasicAuth(header: string | null): BasicCredentials | null {
  if (!header) return null;
  const bearer = BEARER.exec(header);
  if (bearer) {
    const token = bearer[1];
    if (token.startsWith("sk_")) return { secretKey: token, publicKey: null, secretKeys: 1 };
    return { secretKey: null, publicKey: token.startsWith("pk_") ? token : null, secretKeys: 0 };
  }
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
  if (secret.length !== 1) return { secretKey: null, publicKey: publics[0] ?? null, secretKeys: secret.length };
  return { secretKey: secret[0], publicKey: publics[0] ?? null, secretKeys: 1 };
}
