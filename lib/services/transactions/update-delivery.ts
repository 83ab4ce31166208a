import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { parseWith } from "@/lib/core/validation";
import { UpdateDeliveryRequest } from "@/lib/schemas/delivery";
import type { ServiceContext } from "../context";
import { unprocessable } from "../errors";
import { getTransaction } from "./get-transaction";
import type { TransactionRow } from "./transaction-view";

// Goods may have been shipped before a refund or a chargeback; never before the payment.
const WAS_PAID: readonly string[] = ["paid", "refunded", "chargedback", "in_protest"];

/**
 * Sets the delivery status (and tracking code) of a transaction's goods. It is the merchant's
 * record for the payer and the dashboard: it moves no money and sends no webhook (webhooks are for
 * payment status). Any order of statuses is allowed, so a mistake can be corrected.
 */
export async function updateDelivery(ctx: ServiceContext, rawId: string, body: unknown): Promise<TransactionRow> {
  const input = parseWith(UpdateDeliveryRequest, body, "delivery update");
  const t = await getTransaction(ctx, rawId);
  if (!t.shipping && !t.items.some((i) => i.tangible)) {
    throw unprocessable(`Transaction ${t.id} has no shipping and no tangible items: there is nothing to deliver.`);
  }
  if (input.status !== "waiting" && !WAS_PAID.includes(t.status)) {
    throw unprocessable(`Transaction ${t.id} is ${t.status}: goods are shipped only for a paid transaction.`);
  }
  const trackingCode = input.trackingCode === undefined ? t.trackingCode : input.trackingCode || null;
  const [row] = await getDb()
    .update(transactions)
    .set({
      deliveryStatus: input.status,
      trackingCode,
      // The resource shows delivery inside `shipping`; a sale of tangible items sent without it gets an empty one.
      shipping: t.shipping ?? { fee: null, address: null },
      updatedAt: ctx.now,
    })
    .where(and(eq(transactions.id, t.id), eq(transactions.companyId, ctx.account.id)))
    .returning();
  return row;
}
