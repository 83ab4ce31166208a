import { getDashboardContext } from "@/lib/auth/session";
import { transactionFilters, transactionQuery } from "@/components/dashboard/transaction-filters";
import { transactionsCsvFilename, transactionsCsvStream } from "@/lib/services/transactions/transactions-csv";

/**
 * GET /dashboard/transactions/export?q=&status=&paymentMethod=&from=&to=: the transactions the
 * list's filters select, all pages (at most MAX_EXPORT_ROWS), as CSV (session only, this account's).
 */
export async function GET(req: Request): Promise<Response> {
  const ctx = await getDashboardContext();
  if (!ctx) {
    const login = new URL("/login", req.url);
    login.searchParams.set("callbackUrl", "/dashboard/transactions");
    return Response.redirect(login, 303);
  }
  const url = new URL(req.url);
  const tq = transactionQuery(transactionFilters((n) => url.searchParams.get(n)), { limit: 100 });
  // A filter the list would ignore is not silently dropped from a file: the page names it.
  if (tq.invalid.length) return new Response("Filtro inválido.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(await transactionsCsvStream(ctx, tq), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${transactionsCsvFilename(ctx.now)}"`,
      "cache-control": "no-store",
    },
  });
}
