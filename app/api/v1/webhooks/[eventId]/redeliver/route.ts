import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { redeliverEvent } from "@/lib/services/webhooks/redeliver-event";

export const POST = withApiKey(async (_req, ctx) => {
  const result = await redeliverEvent(ctx, ctx.params.eventId);
  return ok(result, 200, result.delivered ? "Webhook delivered." : "Webhook delivery failed; the attempt is logged.");
});
