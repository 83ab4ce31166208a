import { ARARA_JS } from "@/lib/browser/arara-js";

// Static content: no database, no auth. Cached for an hour by browsers and CDNs.
export function GET() {
  return new Response(ARARA_JS, {
    status: 200,
    headers: {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "public, max-age=3600",
    },
  });
}
