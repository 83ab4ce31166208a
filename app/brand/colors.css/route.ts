/**
 * `GET /brand/colors.css?c=rrggbb&h=rrggbb`: a merchant's brand colours as CSS variables, for the
 * hosted checkout. A stylesheet from the app's own origin is what the checkout's CSP allows ('self'):
 * an inline style element would need the document's nonce, which a page re-rendered by a server action
 * does not have. The colours are in the URL (checked: six hex digits each), so the answer never changes
 * and is cached for a year.
 */
const HEX = /^[0-9a-f]{6}$/i;

export function GET(req: Request): Response {
  const q = new URL(req.url).searchParams;
  const color = q.get("c") ?? "";
  const hover = q.get("h") ?? "";
  if (!HEX.test(color) || !HEX.test(hover)) {
    return new Response("/* c and h must be six hex digits each */\n", { status: 400, headers: { "content-type": "text/css; charset=utf-8" } });
  }
  return new Response(`:root{--brand:#${color};--brand-hover:#${hover}}\n`, {
    headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=31536000, immutable" },
  });
}
