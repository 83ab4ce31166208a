import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { queryObject } from "@/lib/http/pagination";
import { ListCashOutsQuery } from "@/lib/schemas/money";
import { cashOutResource } from "@/lib/services/cash-outs/cash-out-view";
import { listCashOuts } from "@/lib/services/cash-outs/list-cash-outs";

export const GET = withApiKey(async (_req, ctx) => {
  const query = parseWith(ListCashOutsQuery, queryObject(ctx.url, ListCashOutsQuery), "query");
  const { rows, pagination } = await listCashOuts(ctx, query);
  return ok({ data: rows.map(cashOutResource), pagination });
});
