import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import type { CashOutInput } from "@/lib/schemas/money";
import { cashOutResource } from "@/lib/services/cash-outs/cash-out-view";
import { requestCashOut } from "@/lib/services/cash-outs/request-cash-out";
import { postbackCheckOf } from "@/lib/webhooks/ssrf";

export const POST = withApiKey(
  async (_req, ctx) => ok(cashOutResource(await requestCashOut(ctx, ctx.body as CashOutInput, ctx.tx)), 201),
  // Every cash-out takes its id before its one writing statement: the key's check takes it.
  // The webhook URL's DNS lookup runs before the Idempotency-Key's transaction opens.
  { idempotent: true, reservesId: () => "cash_outs", prepare: (ctx) => postbackCheckOf(ctx, ctx.body) },
);
