import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { companyView } from "@/lib/services/accounts/accounts";

export const GET = withApiKey(async (_req, ctx) => ok(companyView(ctx.account)));
