/**
 * Finding the hosted checkout's rows by what the page knows: a secureId (a charge's or a payment
 * link's), a link's id, and the chain of card retries of one order.
 */
import { count, desc, eq, sql } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { checkouts, transactions } from "@/lib/db/schema";
import { checkoutStatusSql, type CheckoutStatus, type CheckoutRow } from "./checkout-view";
import type { TransactionRow } from "../transactions/transaction-view";

/** Refused card attempts one order may take on the hosted page before it stops offering another try. */
export const MAX_CARD_ATTEMPTS = 5;
/** Charges one payment link may issue in all (its form's and every retry's). */
export const MAX_LINK_CHARGES = 20;

/** What a link has issued: every charge, and its refused cards (the caps above are counted on these). */
export async function linkChargeCounts(q: Queryable, checkoutId: number): Promise<{ all: number; refusedCards: number }> {
  const [made] = await q
    .select({ all: count(), refused: sql<number>`count(*) filter (where ${transactions.status} = 'refused')` })
    .from(transactions)
    .where(eq(transactions.checkoutId, checkoutId));
  return { all: Number(made.all), refusedCards: Number(made.refused) };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSecureId(s: string): boolean {
  return UUID_RE.test(s);
}

/** The newest attempt of a retried card charge (following retryOfId forwards), or null if none. */
export async function latestRetryOf(id: number, db: Queryable = getDb()): Promise<TransactionRow | null> {
  let latest: TransactionRow | null = null;
  let current = id;
  for (let i = 0; i < 50; i++) {
    const [next] = await db.select().from(transactions).where(eq(transactions.retryOfId, current)).orderBy(desc(transactions.id)).limit(1);
    if (!next) break;
    latest = next;
    current = next.id;
  }
  return latest;
}

/** Card attempts of the order this transaction belongs to: the chain of retries back to the first. */
export async function cardAttemptsOf(t: TransactionRow, db: Queryable = getDb()): Promise<number> {
  let n = 1;
  let prev = t.retryOfId;
  while (prev !== null && n < 50) {
    const [row] = await db.select({ retryOfId: transactions.retryOfId }).from(transactions).where(eq(transactions.id, prev)).limit(1);
    if (!row) break;
    n += 1;
    prev = row.retryOfId;
  }
  return n;
}

export async function findLinkBySecureId(
  secureId: string,
  now: Date,
  db: Queryable = getDb(),
): Promise<{ row: CheckoutRow; status: CheckoutStatus } | null> {
  const [found] = await db
    .select({ row: checkouts, status: checkoutStatusSql(now) })
    .from(checkouts)
    .where(eq(checkouts.secureId, secureId))
    .limit(1);
  return found ?? null;
}

export async function findLinkById(id: number, now: Date): Promise<{ row: CheckoutRow; status: CheckoutStatus } | null> {
  const [found] = await getDb()
    .select({ row: checkouts, status: checkoutStatusSql(now) })
    .from(checkouts)
    .where(eq(checkouts.id, id))
    .limit(1);
  return found ?? null;
}

export async function findTransactionBySecureId(secureId: string): Promise<TransactionRow | null> {
  const [row] = await getDb().select().from(transactions).where(eq(transactions.secureId, secureId)).limit(1);
  return row ?? null;
}

/**
 * The payment link of a charge still waiting for payment, when another charge has paid that link: the
 * order is paid and this charge must no longer be (its page shows the link's; its QR code and boleto
 * are not served). null for any other charge.
 */
export async function linkPaidByAnother(t: Pick<TransactionRow, "status" | "checkoutId">, now: Date): Promise<CheckoutRow | null> {
  if (t.checkoutId === null || (t.status !== "pending" && t.status !== "processing")) return null;
  const link = await findLinkById(t.checkoutId, now);
  return link?.status === "paid" ? link.row : null;
}
