import { parseJsonText, readBodyText } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { ServiceError } from "@/lib/services/errors";
import { withPublic } from "@/lib/http/handler";
import { handleApiPixWebhook } from "@/lib/services/psp/api-pix-webhook";

/**
 * The API Pix PSP's webhook, `POST {webhookUrl}/pix` (and the bare `{webhookUrl}`, which some PSPs
 * call): `{ pix: [...] }`, or a bare array (as Inter posts), up to 1000 items, a malformed item
 * skipped (lib/services/psp/api-pix-webhook.ts). Wake-only: the body is read for end-to-end ids, which
 * are re-read from the PSP (of the first 10, those naming a charge or Pix of ours, within per-charge and
 * per-account budgets, before answering; the rest by the reconciliation); nothing in it is trusted. A body that is not a notification is answered 200 with `received: 0`. An
 * unknown token is a 404. Mutual TLS with the PSP is
 * terminated by the reverse proxy in front of the app (docs/psp-api-pix.md). The body is read as
 * every request body is (lib/http/body.ts): over 1 MB a 413, bytes that are not UTF-8 or JSON that is
 * malformed or nested too deep a 400, each in the one error body.
 */
export const pspWebhook = withPublic(async (req, ctx) => {
  const token = String(ctx.params.token ?? "");
  const text = await readBodyText(req);
  const body = text.trim() === "" ? undefined : parseJsonText(text);
  const outcome = await handleApiPixWebhook(token, body, ctx.now);
  if (!outcome.found) throw new ServiceError("not_found", "No such webhook.");
  return ok({ received: outcome.ids });
});
