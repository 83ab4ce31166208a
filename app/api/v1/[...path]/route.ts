import { withPublic } from "@/lib/http/handler";
import { ServiceError } from "@/lib/services/errors";

// Anything under /api/v1 that no route matches: a 404 in the API's error body (with its requestId,
// as the handler kit answers every error), not an HTML page.
const notFound = withPublic(async (req) => {
  throw new ServiceError("not_found", `No API route ${req.method} ${new URL(req.url).pathname}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
