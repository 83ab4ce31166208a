import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { StatementQuery } from "@/lib/schemas/money";
import { listStatement } from "@/lib/services/accounts/list-statement";

/** The statement pages by cursor only: a `page` (of the other lists) would otherwise read as page 1. */
const PAGES_BY_CURSOR = "is not a parameter of the statement: it pages by cursor (send each page's nextCursor as cursor until it is null)";

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(StatementQuery, queryObject(ctx.url, StatementQuery, { page: PAGES_BY_CURSOR, offset: PAGES_BY_CURSOR }), "query");
  return ok(await listStatement(ctx, query));
});
