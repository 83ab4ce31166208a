import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { skipWebhookEvent } from "@/lib/services/webhooks/skip-webhook-event";

export const POST = withApiKey(async (_req, ctx) => {
  const event = await skipWebhookEvent(ctx, ctx.params.eventId);
  return ok(event, 200, "Webhook skipped: it will not be sent again automatically, and later events of its transaction go on.");
});
