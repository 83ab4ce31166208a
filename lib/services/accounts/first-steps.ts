/**
 * The overview's "Primeiros passos" for a new merchant: what to do before the first sale, each step
 * done or not as the database says, shown until the account's first paid sale.
 */
import { and, eq, isNotNull, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkouts, companies, transactions } from "@/lib/db/schema";
import type { ServiceContext } from "../context";

export type FirstStepId = "payment_link" | "api_keys" | "pix_details";

export type FirstStep = { id: FirstStepId; done: boolean };

export type FirstSteps = {
  /** False once the account has a paid sale: the card is no longer shown. */
  show: boolean;
  steps: FirstStep[];
};

/**
 * - payment_link: the account has created a payment link;
 * - api_keys: the account has created a charge through the API (a transaction that no payment
 *   link created), so its keys are in use;
 * - pix_details: the merchant gave or saved the city the PIX codes print (companies.city_confirmed_at).
 * One query, each answer an EXISTS on the account's own indexed rows.
 */
export async function getFirstSteps(ctx: Pick<ServiceContext, "account">): Promise<FirstSteps> {
  const id = ctx.account.id;
  const db = getDb();
  const exists = (q: SQLWrapper) => sql<boolean>`exists (${q})`;
  const one = sql`1`;
  const [row] = await db
    .select({
      paid: exists(db.select({ one }).from(transactions).where(and(eq(transactions.companyId, id), isNotNull(transactions.paidAt))).limit(1)),
      link: exists(db.select({ one }).from(checkouts).where(eq(checkouts.companyId, id)).limit(1)),
      api: exists(db.select({ one }).from(transactions).where(and(eq(transactions.companyId, id), isNull(transactions.checkoutId))).limit(1)),
      city: isNotNull(companies.cityConfirmedAt),
    })
    .from(companies)
    .where(eq(companies.id, id));
  const yes = (v: unknown) => v === true || v === "t" || v === "true";
  return {
    show: !yes(row?.paid),
    steps: [
      { id: "payment_link", done: yes(row?.link) },
      { id: "api_keys", done: yes(row?.api) },
      { id: "pix_details", done: yes(row?.city) },
    ],
  };
}
