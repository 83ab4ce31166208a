/**
 * Finding the hosted checkout's rows by what the page knows: a secureId (a charge's or a payment
 * link's), a link's id, and the chain of card retries of one order.
 */
import { createHash } from "node:crypto";
import { and, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
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

/**
 * A PIX or boleto still worth paying needs this much time left to be handed out again: a payer who
 * taps again and is given a code that expires before they reach their bank has to ask a third time.
 */
export const REPEAT_MIN_LEFT_MS = 10 * 60_000;

/** What a payment link's charge keeps of the page's attempt key: its SHA-256, hex. */
export function checkoutAttemptHash(attempt: string | undefined): string | undefined {
  return attempt ? createHash("sha256").update(attempt).digest("hex") : undefined;
}

/**
 * The charge a payer's repeated request on a payment link already made: asked from the same page
 * (its attempt key, which only that browser knows), for the same method (PIX or boleto), name,
 * e-mail and document, still pending, with REPEAT_MIN_LEFT_MS or more before it expires. The payer
 * whose answer was lost (a dropped connection, a double tap, Reload) and who asks again is given the
 * code already issued instead of a second one to pay. Anyone else asking with the same details is
 * not: without the key, nothing here tells whether that person has asked. A card is never repeated
 * this way (each tap is a new attempt the payer chose to make). null when there is none; the caller
 * then makes a new charge.
 */
export async function pendingRepeatOf(
  q: Queryable,
  checkoutId: number,
  method: string,
  payer: { name: string; email: string; document: string },
  attemptHash: string | undefined,
  now: Date,
): Promise<TransactionRow | null> {
  if ((method !== "pix" && method !== "boleto") || !attemptHash) return null;
  const candidates = await q
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.checkoutId, checkoutId),
        eq(transactions.checkoutAttempt, attemptHash),
        eq(transactions.paymentMethod, method),
        eq(transactions.status, "pending"),
        eq(transactions.customerDocument, payer.document),
        isNull(transactions.duplicateOfId),
        gt(transactions.expiresAt, new Date(now.getTime() + REPEAT_MIN_LEFT_MS)),
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(MAX_LINK_CHARGES);
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return candidates.find((t) => same(t.customer.name, payer.name) && same(t.customer.email, payer.email)) ?? null;
}

/**
 * The PIX or boleto a browser already made on an open payment link and can still pay (pending, not
 * past its expiry), found by the browser's attempt key: the link's page offers "Continuar pagamento"
 * only to that browser. Anyone else opening the link (it was shared in a group chat) learns nothing of
 * another payer's charge (whose boleto names the payer and their CPF). null without a key, for a link
 * that is not open, or when there is none.
 */
export async function pendingOfAttempt(linkSecureId: string, attempt: string | undefined, now: Date): Promise<{ secureId: string; paymentMethod: "pix" | "boleto" } | null> {
  const attemptHash = checkoutAttemptHash(attempt);
  if (!attemptHash) return null;
  const link = await findLinkBySecureId(linkSecureId.toLowerCase(), now);
  if (!link || link.status !== "open") return null;
  const [t] = await getDb()
    .select({ secureId: transactions.secureId, paymentMethod: transactions.paymentMethod })
    .from(transactions)
    .where(
      and(
        eq(transactions.checkoutId, link.row.id),
        eq(transactions.checkoutAttempt, attemptHash),
        eq(transactions.status, "pending"),
        isNull(transactions.duplicateOfId),
        gt(transactions.expiresAt, now),
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(1);
  return t ? { secureId: t.secureId, paymentMethod: t.paymentMethod as "pix" | "boleto" } : null;
}
