import { ARARA_JS } from "@/lib/browser/arara-js";
import { withStatic } from "@/lib/http/handler";

// Static content: no database, no auth. Cached for an hour by browsers and CDNs. X-Request-Id as on
// every API answer.
export const GET = withStatic(
  () =>
    new Response(ARARA_JS, {
      status: 200,
      headers: {
        "content-type": "application/javascript; charset=utf-8",
        "cache-control": "public, max-age=3600",
      },
    }),
);
