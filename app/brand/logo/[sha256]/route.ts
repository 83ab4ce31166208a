import { withPublic } from "@/lib/http/handler";
import { logoBySha256 } from "@/lib/services/accounts/branding";
import { notFound } from "@/lib/services/errors";

/**
 * GET /brand/logo/{sha256}: a merchant's checkout logo, from the database. The address is the
 * image's hash, so it never changes meaning: cached for a year (immutable), revalidated by ETag.
 */
export const GET = withPublic(async (req, ctx) => {
  const sha = ctx.params.sha256 ?? "";
  const logo = await logoBySha256(sha);
  if (!logo) throw notFound("Logo");
  const etag = `"${sha}"`;
  const headers = {
    "content-type": logo.type,
    "cache-control": "public, max-age=31536000, immutable",
    etag,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'",
  };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(logo.bytes), { status: 200, headers });
});
