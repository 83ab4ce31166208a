import { and, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { checkouts } from "@/lib/db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { checkoutStatusSql, paidTransactionIdSql, returnedTransactionIdsSql, type CheckoutWithStatus } from "./checkout-view";
import { idOrNotFound } from "@/lib/core/ids";

export function checkoutSelection(now: Date) {
  return {
    row: checkouts,
    status: checkoutStatusSql(now),
    paidTransactionId: paidTransactionIdSql(),
    returnedTransactionIds: returnedTransactionIdsSql(),
  };
}

/** A payment link of the context's account; another account's id reads as missing. */
export async function getCheckout(
  ctx: Pick<ServiceContext, "account" | "now">,
  rawId: string | number,
  db: Queryable = getDb(),
): Promise<CheckoutWithStatus> {
  const id = idOrNotFound(rawId, "Payment link");
  const [found] = await db
    .select(checkoutSelection(ctx.now))
    .from(checkouts)
    .where(and(eq(checkouts.id, id), eq(checkouts.companyId, ctx.account.id)))
    .limit(1);
  if (!found) throw notFound("Payment link");
  return found;
}
