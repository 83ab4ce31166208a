import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import { createCheckout } from "@/lib/services/checkouts/create-checkout";
import { listCheckouts } from "@/lib/services/checkouts/list-checkouts";
import { checkoutView } from "@/lib/http/dialect-views";
import { postbackCheckOf } from "@/lib/webhooks/ssrf";

export const POST = withApiKey(
  async (_req, ctx) => ok(checkoutView(ctx, await createCheckout(ctx, ctx.body, ctx.tx)), 201, "Payment link created."),
  // The webhook URL's DNS lookup runs before the Idempotency-Key's transaction opens.
  { idempotent: true, prepare: (ctx) => postbackCheckOf(ctx, ctx.body) },
);

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(ListCheckoutsQuery, queryObject(ctx.url, ListCheckoutsQuery), "query");
  const { rows, pagination } = await listCheckouts(ctx, query);
  return ok({ data: rows.map((c) => checkoutView(ctx, c)), pagination });
});
