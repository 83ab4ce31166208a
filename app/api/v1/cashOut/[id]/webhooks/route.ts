import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { listCashOutWebhooks } from "@/lib/services/webhooks/list-transaction-webhooks";

export const GET = withApiKey(async (_req, ctx) => ok(await listCashOutWebhooks(ctx, ctx.params.id)));
