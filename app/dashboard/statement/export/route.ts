import { getDashboardContext } from "@/lib/auth/session";
import { statementCsv } from "@/lib/services/accounts/statement-csv";
import { statementFilters, statementQuery } from "@/components/dashboard/statement-filters";

/** GET /dashboard/statement/export?from=&to=&type=&account=: the filtered statement as CSV (session only). */
export async function GET(req: Request): Promise<Response> {
  const ctx = await getDashboardContext();
  if (!ctx) {
    const login = new URL("/login", req.url);
    login.searchParams.set("callbackUrl", "/dashboard/statement");
    return Response.redirect(login, 303);
  }
  const url = new URL(req.url);
  const { query, ok } = statementQuery(statementFilters((n) => url.searchParams.get(n)), { limit: 100 });
  if (!ok) return new Response("Filtro inválido.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  const { filename, csv } = await statementCsv(ctx, query);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
