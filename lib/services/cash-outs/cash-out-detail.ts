import { getDb, type Queryable } from "@/lib/db/client";
import type { ServiceContext } from "../context";
import { listCashOutWebhooks } from "../webhooks/list-transaction-webhooks";
import { dashboardWebhookItems, type DashboardWebhookItem } from "../webhooks/dashboard-webhook-items";
import type { CashOutWithPsp } from "./cash-out-view";
import { getCashOut } from "./get-cash-out";

export type CashOutDetail = { cashOut: CashOutWithPsp; webhooks: DashboardWebhookItem[] };

/**
 * The dashboard's cash-out page: the cash-out of the context's account (another account's id reads as
 * missing, a 404) and its `cash_out` notifications with their attempts, as GET /api/v1/cashOut/{id}/webhooks
 * lists them, with what the page offers on each.
 */
export async function getCashOutDetail(
  ctx: Pick<ServiceContext, "account" | "now">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<CashOutDetail> {
  const cashOut = await getCashOut(ctx, rawId, db);
  const webhooks = await listCashOutWebhooks(ctx, cashOut.id, db);
  return { cashOut, webhooks: dashboardWebhookItems(webhooks, ctx.now) };
}
