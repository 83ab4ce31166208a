import { ok } from "@/lib/http/envelope";
import { errorResponse } from "@/lib/http/errors";
import { withPublic } from "@/lib/http/handler";
import { handleApiPixWebhook } from "@/lib/services/psp/api-pix-webhook";

const MAX_BODY = 256 * 1024;

/**
 * The API Pix PSP's webhook, `POST {webhookUrl}/pix` (and the bare `{webhookUrl}`, which some PSPs
 * call): `{ pix: [...] }`. Wake-only: the body is read for end-to-end ids, which are re-read from
 * the PSP; nothing in it is trusted. An unknown token is a 404. Mutual TLS with the PSP is
 * terminated by the reverse proxy in front of the app (docs/psp-api-pix.md).
 */
export const pspWebhook = withPublic(async (req, ctx) => {
  const token = String(ctx.params.token ?? "");
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY) return errorResponse("validation_error", "The notification body is too large.");
  let body: unknown = undefined;
  try {
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return errorResponse("validation_error", "The notification body is not JSON.");
  }
  const outcome = await handleApiPixWebhook(token, body, ctx.now);
  if (!outcome.found) return errorResponse("not_found", "No such webhook.");
  return ok({ received: outcome.ids });
});
