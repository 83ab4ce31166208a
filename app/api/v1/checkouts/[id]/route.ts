import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getCheckout } from "@/lib/services/checkouts/get-checkout";
import { checkoutResource } from "@/lib/services/checkouts/checkout-view";

export const GET = withApiKey(async (_req, ctx) => ok(checkoutResource(await getCheckout(ctx, ctx.params.id))));
