import { withPublic } from "@/lib/http/handler";
import { json } from "@/lib/http/envelope";
import { openApiDocument } from "@/lib/openapi/document";

// Public: the reference describes the API, never an account. Readable at /docs.
export const GET = withPublic(async () =>
  json(openApiDocument(), 200, { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" }),
);
