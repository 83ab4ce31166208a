import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { cashOutResource } from "@/lib/services/cash-outs/cash-out-view";
import { getCashOut } from "@/lib/services/cash-outs/get-cash-out";

export const GET = withApiKey(async (_req, ctx) => ok(cashOutResource(await getCashOut(ctx, ctx.params.id))));
