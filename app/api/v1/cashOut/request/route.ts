import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import type { CashOutInput } from "@/lib/schemas/money";
import { cashOutResource } from "@/lib/services/cash-outs/cash-out-view";
import { requestCashOut } from "@/lib/services/cash-outs/request-cash-out";

export const POST = withApiKey(
  async (_req, ctx) => ok(cashOutResource(await requestCashOut(ctx, ctx.body as CashOutInput, ctx.tx)), 201),
  // Every cash-out takes its id before its one writing statement: the key's check takes it.
  { idempotent: true, reservesId: () => "cash_outs" },
);
