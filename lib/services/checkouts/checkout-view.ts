import { sql, type SQL } from "drizzle-orm";
import type { CheckoutRow } from "@/lib/core/rows";
import { getEnv } from "@/lib/env";

export type { CheckoutRow };
export type CheckoutStatus = "open" | "paid" | "expired";

/** A link's page is the same hosted checkout route as a transaction's. */
export function checkoutUrlOf(secureId: string): string {
  return `${getEnv().checkoutUrl}/checkout/${secureId}`;
}

/**
 * A link's status is derived, not stored: it is `paid` once a transaction made from it has been paid
 * (whoever moved it: PSP, boleto clearing, sandbox) and kept as the link's payment (see
 * lib/services/checkouts/link-payment.ts: at most one is), `expired` after `expiresAt`, else `open`. Deriving
 * it means no other service has to remember to update the link. Columns are written qualified:
 * drizzle renders a bare column unqualified, which inside the subquery would read `t`.
 */
export function checkoutStatusSql(now: Date): SQL<CheckoutStatus> {
  return sql<CheckoutStatus>`case
    when exists (select 1 from transactions t where t.checkout_id = "checkouts"."id" and t.paid_at is not null and t.duplicate_of_id is null) then 'paid'
    when "checkouts"."expires_at" is not null and "checkouts"."expires_at" <= ${now.toISOString()}::timestamptz then 'expired'
    else 'open' end`;
}

/** The transaction that paid the link, if any (one at most: the unique index on the link's payment). */
export function paidTransactionIdSql(): SQL<number | null> {
  return sql<number | null>`(select t.id from transactions t
    where t.checkout_id = "checkouts"."id" and t.paid_at is not null and t.duplicate_of_id is null
    order by t.paid_at, t.id limit 1)`.mapWith((v) => (v === null ? null : Number(v)));
}

/** Payments that arrived for the link after it was paid, and were returned to the payer. */
export function returnedTransactionIdsSql(): SQL<number[]> {
  // coalesce: drizzle does not run mapWith on a null.
  return sql<number[]>`coalesce((select string_agg(t.id::text, ',' order by t.id) from transactions t
    where t.checkout_id = "checkouts"."id" and t.duplicate_of_id is not null), '')`.mapWith((v) =>
    String(v) === "" ? [] : String(v).split(",").map(Number),
  );
}

export type CheckoutWithStatus = {
  row: CheckoutRow;
  status: CheckoutStatus;
  paidTransactionId: number | null;
  /** Duplicate payments returned to the payer (shown in the dashboard; not part of the API resource). */
  returnedTransactionIds: number[];
};

/** The payment link as the API shows it. */
export function checkoutResource({ row, status, paidTransactionId }: CheckoutWithStatus) {
  return {
    id: row.id,
    secureId: row.secureId,
    secureUrl: checkoutUrlOf(row.secureId),
    status,
    amount: row.amount,
    description: row.description,
    items: row.items.map((i) => ({ title: i.title, unitPrice: i.unitPrice, quantity: i.quantity, tangible: i.tangible })),
    methods: row.methods,
    externalRef: row.externalRef,
    postbackUrl: row.postbackUrl,
    returnUrl: row.returnUrl,
    installmentPlan: row.installmentPlan ?? null,
    metadata: row.metadata,
    transactionId: paidTransactionId,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
export type CheckoutResource = ReturnType<typeof checkoutResource>;
