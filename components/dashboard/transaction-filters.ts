import { ListTransactionsQuery, type PendingExpiry } from "@/lib/services/transactions/list-transactions";
import { endOfDayBR, startOfDayBR } from "./dates";

/** The transactions page's filters, as its URL has them (the CSV export links with the same ones). */
export type TransactionFilters = { q?: string; status?: string; paymentMethod?: string; from?: string; to?: string };

/** Each filter's name on the page, to say which one was ignored. */
export const TRANSACTION_FILTER_LABEL: Record<keyof TransactionFilters | "page", string> = {
  q: "Buscar",
  status: "Status",
  paymentMethod: "Meio",
  from: "De",
  to: "Até",
  page: "Página",
};

const one = (v: string | string[] | null | undefined) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

export function transactionFilters(get: (name: string) => string | string[] | null | undefined): TransactionFilters {
  return { q: one(get("q")), status: one(get("status")), paymentMethod: one(get("paymentMethod")), from: one(get("from")), to: one(get("to")) };
}

export type TransactionQuery = {
  query: ListTransactionsQuery;
  /** The dashboard's split of pending ("Pendente" can still be paid, "Expirado" cannot). */
  opts: Pick<PendingExpiry, "pendingExpiry">;
  /** The filters whose value did not parse and were ignored (their keys; TRANSACTION_FILTER_LABEL names them). */
  invalid: (keyof TransactionFilters | "page")[];
  /** "De" after "Até": no transaction can match, and the page says so. */
  reversed: boolean;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The service query for these filters. A filter that does not parse is left out, and named in
 * `invalid`: the others still apply. `page` and `limit` are the list's (the export pages by cursor).
 */
export function transactionQuery(f: TransactionFilters, extra: { page?: string; limit: number }): TransactionQuery {
  // "Pendente" is a charge that can still be paid, "Expirado" one past its expiry (the API has pending only).
  const pendingExpiry = f.status === "expired" ? "expired" : f.status === "pending" ? "live" : undefined;
  const raw: Record<string, string | undefined> = {
    q: f.q,
    status: pendingExpiry ? undefined : f.status,
    paymentMethod: f.paymentMethod,
    from: f.from && DAY.test(f.from) ? startOfDayBR(f.from) : f.from,
    to: f.to && DAY.test(f.to) ? endOfDayBR(f.to) : f.to,
    page: extra.page ?? "1",
    limit: String(extra.limit),
  };
  const invalid: TransactionQuery["invalid"] = [];
  // A date typed by hand that is not a day (the field is type=date; a URL can say anything).
  for (const k of ["from", "to"] as const) {
    if (f[k] && !DAY.test(f[k])) {
      invalid.push(k);
      raw[k] = undefined;
    }
  }
  let parsed = ListTransactionsQuery.safeParse(raw);
  while (!parsed.success) {
    const keys = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")));
    const known = [...keys].filter((k): k is keyof TransactionFilters | "page" => k in TRANSACTION_FILTER_LABEL && raw[k] !== undefined);
    if (known.length === 0) {
      parsed = ListTransactionsQuery.safeParse({ page: "1", limit: String(extra.limit) });
      break;
    }
    for (const k of known) {
      if (!invalid.includes(k)) invalid.push(k);
      raw[k] = k === "page" ? "1" : undefined;
    }
    parsed = ListTransactionsQuery.safeParse(raw);
  }
  const query = parsed.success ? parsed.data : ListTransactionsQuery.parse({ page: "1", limit: String(extra.limit) });
  const reversed = Boolean(query.from && query.to && new Date(query.from) > new Date(query.to));
  return { query, opts: !invalid.includes("status") && pendingExpiry ? { pendingExpiry } : {}, invalid, reversed };
}

/** The query string of these filters (the export's link, a page's link). */
export function transactionSearch(f: TransactionFilters): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  return q;
}
