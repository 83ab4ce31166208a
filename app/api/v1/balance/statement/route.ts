import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { StatementQuery } from "@/lib/schemas/money";
import { listStatement } from "@/lib/services/accounts/list-statement";

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(StatementQuery, queryObject(ctx.url), "query");
  return ok(await listStatement(ctx, query));
});
