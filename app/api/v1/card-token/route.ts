import { withPublic } from "@/lib/http/handler";
import { readJson } from "@/lib/http/body";
import { limitCardTokenization } from "@/lib/http/public-limits";
import { tokenizeCard } from "@/lib/services/transactions/tokenize-card";

// Called from payers' browsers on merchants' sites: this route alone is open to every origin.
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "86400",
};

function withCors(res: Response): Response {
  for (const [k, v] of Object.entries(CORS)) res.headers.set(k, v);
  // The public key travels in the query string, not in HTTP Basic: no Basic challenge (a browser
  // would open a login dialog on the payer's screen).
  res.headers.delete("www-authenticate");
  return res;
}

const tokenize = withPublic(async (req, ctx) => {
  const publicKey = ctx.url.searchParams.get("publicKey");
  await limitCardTokenization(req, publicKey);
  const { value } = await readJson(req);
  const token = await tokenizeCard(publicKey, value, ctx.now);
  return new Response(token, { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
});

export async function POST(req: Request, args: { params: Promise<Record<string, string | string[] | undefined>> }) {
  return withCors(await tokenize(req, args));
}

export function OPTIONS() {
  return new Response(null, { status: 204, headers: CORS });
}
