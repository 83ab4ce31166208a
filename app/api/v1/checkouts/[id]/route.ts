import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getCheckout } from "@/lib/services/checkouts/get-checkout";
import { checkoutView } from "@/lib/http/dialect-views";

export const GET = withApiKey(async (_req, ctx) => ok(checkoutView(ctx, await getCheckout(ctx, ctx.params.id))));
