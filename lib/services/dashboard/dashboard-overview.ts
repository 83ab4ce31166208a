import { and, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { PAYMENT_METHODS, type PaymentMethod } from "@/lib/domain/status";
import type { ServiceContext } from "../context";
import { BRASILIA_TIME_ZONE } from "@/lib/domain/time";

/** Days are the merchant's business days in Brasília time, not UTC days. */
export const DASHBOARD_TIME_ZONE = BRASILIA_TIME_ZONE;

export type DayVolume = { date: string; total: number } & Record<PaymentMethod, number>;

export type MethodFigures = {
  method: PaymentMethod;
  /** Transactions created in the window. */
  created: number;
  /** Of those, how many were paid (a later refund or chargeback still counts: the payer paid). */
  paid: number;
  /** paid / created, or null when nothing was created. */
  conversion: number | null;
  /** Money paid in the window (by payment date), centavos. */
  paidVolume: number;
};

export type DashboardOverview = {
  /** First and last day of the window, YYYY-MM-DD in Brasília time. */
  from: string;
  to: string;
  days: DayVolume[];
  byMethod: MethodFigures[];
  totals: Omit<MethodFigures, "method">;
};

/** YYYY-MM-DD of an instant in the dashboard's time zone. */
export function localDate(instant: Date): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: DASHBOARD_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(instant);
}

function addDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

const zero = (): Record<PaymentMethod, number> => ({ pix: 0, boleto: 0, credit_card: 0 });

/**
 * The overview page's figures for the last `days` days including today: paid volume per day and
 * method (by payment date), and per method the transactions created, how many of them were paid,
 * and the conversion.
 */
export async function getDashboardOverview(
  ctx: Pick<ServiceContext, "account" | "now">,
  opts: { days?: number } = {},
): Promise<DashboardOverview> {
  const days = Math.min(Math.max(Math.trunc(opts.days ?? 30), 1), 366);
  const to = localDate(ctx.now);
  const from = addDays(to, -(days - 1));
  const endExclusive = addDays(to, 1);
  // The zone is a constant literal, not a parameter: GROUP BY must see the same expression as SELECT.
  const zone = sql.raw(`'${DASHBOARD_TIME_ZONE}'`);
  // Local midnights as instants, computed by the database from the zone's rules.
  const startAt = sql`(${from}::date::timestamp at time zone ${zone})`;
  const endAt = sql`(${endExclusive}::date::timestamp at time zone ${zone})`;
  const paidDay = sql<string>`to_char((${transactions.paidAt} at time zone ${zone})::date, 'YYYY-MM-DD')`;
  // A partial capture would set paidAmount; PIX and boleto are paid in full.
  const paidValue = sql`case when ${transactions.paidAmount} > 0 then ${transactions.paidAmount} else ${transactions.amount} end`;

  const db = getDb();
  const [volumeRows, countRows] = await Promise.all([
    db
      .select({
        day: paidDay,
        method: transactions.paymentMethod,
        volume: sql<string>`sum(${paidValue})`,
      })
      .from(transactions)
      .where(
        and(
          eq(transactions.companyId, ctx.account.id),
          gte(transactions.paidAt, startAt),
          lt(transactions.paidAt, endAt),
          // A second payment of a paid payment link was returned at once: not a sale.
          isNull(transactions.duplicateOfId),
        ),
      )
      .groupBy(paidDay, transactions.paymentMethod),
    db
      .select({
        method: transactions.paymentMethod,
        created: sql<string>`count(*)`,
        paid: sql<string>`count(*) filter (where ${transactions.paidAt} is not null and ${transactions.duplicateOfId} is null)`,
      })
      .from(transactions)
      .where(
        and(eq(transactions.companyId, ctx.account.id), gte(transactions.createdAt, startAt), lt(transactions.createdAt, endAt)),
      )
      .groupBy(transactions.paymentMethod),
  ]);

  const byDay = new Map<string, Record<PaymentMethod, number>>();
  for (let i = 0; i < days; i++) byDay.set(addDays(from, i), zero());
  const volumeByMethod = zero();
  for (const r of volumeRows) {
    const m = r.method as PaymentMethod;
    const bucket = byDay.get(r.day);
    if (!bucket || !(m in bucket)) continue;
    bucket[m] += Number(r.volume);
    volumeByMethod[m] += Number(r.volume);
  }

  const byMethod: MethodFigures[] = PAYMENT_METHODS.map((method) => {
    const r = countRows.find((x) => x.method === method);
    const created = Number(r?.created ?? 0);
    const paid = Number(r?.paid ?? 0);
    return { method, created, paid, conversion: created ? paid / created : null, paidVolume: volumeByMethod[method] };
  });
  const created = byMethod.reduce((s, m) => s + m.created, 0);
  const paid = byMethod.reduce((s, m) => s + m.paid, 0);

  return {
    from,
    to,
    days: [...byDay.entries()].map(([date, v]) => ({ date, ...v, total: v.pix + v.boleto + v.credit_card })),
    byMethod,
    totals: {
      created,
      paid,
      conversion: created ? paid / created : null,
      paidVolume: byMethod.reduce((s, m) => s + m.paidVolume, 0),
    },
  };
}
