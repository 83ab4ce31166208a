import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getBalance } from "@/lib/services/accounts/get-balance";

export const GET = withApiKey(async (_req, ctx) => ok(await getBalance(ctx)));
