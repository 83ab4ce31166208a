import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { parseWith } from "@/lib/core/validation";
import { hasDelivery, mayShip } from "@/lib/domain/delivery";
import { UpdateDeliveryRequest } from "@/lib/schemas/delivery";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { getTransaction } from "./get-transaction";
import type { TransactionRow } from "./transaction-view";

/**
 * Sets the delivery status (and tracking code) of a transaction's goods. It is the merchant's
 * record for the payer and the dashboard: it moves no money and sends no webhook (webhooks are for
 * payment status). Any order of statuses is allowed, so a mistake can be corrected.
 */
export async function updateDelivery(ctx: ServiceContext, rawId: string, body: unknown): Promise<TransactionRow> {
  const input = parseWith(UpdateDeliveryRequest, body, "delivery update");
  const t = await getTransaction(ctx, rawId);
  if (!hasDelivery(t)) {
    throw new ServiceError("unprocessable", `Transaction ${t.id} has no shipping and no tangible items: there is nothing to deliver.`, undefined, {
      messagePt: "Esta venda não tem entrega: nenhum endereço de entrega nem item físico.",
    });
  }
  if (input.status !== "waiting" && !mayShip(t.status)) {
    throw new ServiceError("unprocessable", `Transaction ${t.id} is ${t.status}: goods are shipped only for a paid transaction.`, undefined, {
      messagePt: "Só se envia o que foi pago: esta transação ainda não foi paga.",
    });
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
