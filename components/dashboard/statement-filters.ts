import { StatementQuery, type StatementQuery as Query } from "@/lib/schemas/money";
import { endOfDayBR, startOfDayBR } from "./dates";

export type StatementFilters = { from?: string; to?: string; type?: string; account: "available" | "waiting_funds" | "available_at_psp" | "all" };

const one = (v: string | string[] | null | undefined) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The statement page's query string (and the CSV export's, which links with the same one). */
export function statementFilters(get: (name: string) => string | string[] | null | undefined): StatementFilters {
  const account = one(get("account"));
  return {
    from: one(get("from")),
    to: one(get("to")),
    type: one(get("type")),
    account: account === "waiting_funds" || account === "available_at_psp" || account === "all" ? account : "available",
  };
}

/** The service query for these filters; `ok` is false when a filter was invalid and dropped. */
export function statementQuery(f: StatementFilters, extra: { cursor?: string; limit: number }): { query: Query; ok: boolean } {
  const raw = {
    from: startOfDayBR(f.from),
    to: endOfDayBR(f.to),
    type: f.type,
    account: f.account === "all" ? undefined : f.account,
    cursor: extra.cursor,
    limit: String(extra.limit),
  };
  const parsed = StatementQuery.safeParse(raw);
  if (parsed.success) return { query: parsed.data, ok: true };
  return { query: StatementQuery.parse({ account: raw.account, limit: raw.limit }), ok: false };
}

export function statementSearch(f: StatementFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.from) q.set("from", f.from);
  if (f.to) q.set("to", f.to);
  if (f.type) q.set("type", f.type);
  if (f.account !== "available") q.set("account", f.account);
  return q;
}
