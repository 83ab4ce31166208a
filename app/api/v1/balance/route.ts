import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { getBalance } from "@/lib/services/get-balance";

export const GET = withApiKey(async (_req, ctx) => ok(await getBalance(ctx)));
