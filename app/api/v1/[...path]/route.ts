import { withPublic } from "@/lib/http/handler";
import { errorResponse } from "@/lib/http/errors";

// Anything under /api/v1 that no route matches: a 404 in the API's error body, not an HTML page.
const notFound = withPublic(async (req) =>
  errorResponse("not_found", `No API route ${req.method} ${new URL(req.url).pathname}.`),
);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
