import { getDashboardContext } from "@/lib/auth/session";
import { listStatement } from "@/lib/services/accounts/list-statement";
import { localDate } from "@/lib/services/dashboard/dashboard-overview";
import { ACCOUNT_LABEL, ENTRY_TYPE_LABEL } from "@/components/dashboard/format";
import { entryDescription } from "@/components/dashboard/statement-text";
import { statementFilters, statementQuery } from "@/components/dashboard/statement-filters";
import { CSV_BOM, csvDateTime, csvField, csvLine, decimalComma } from "@/components/dashboard/csv";

// A statement larger than this is better read through the API's cursor.
const MAX_ROWS = 100_000;

const HEADER = [
  "data",
  "tipo",
  "descricao",
  "saldo",
  "valor",
  "saldo_apos",
  "valor_centavos",
  "saldo_apos_centavos",
  "transacao",
  "saque",
  "lancamento",
];

/** GET /dashboard/statement/export?from=&to=&type=&account=: the filtered statement as CSV (session only). */
export async function GET(req: Request): Promise<Response> {
  const ctx = await getDashboardContext();
  if (!ctx) {
    const login = new URL("/login", req.url);
    login.searchParams.set("callbackUrl", "/dashboard/statement");
    return Response.redirect(login, 303);
  }
  const url = new URL(req.url);
  const filters = statementFilters((n) => url.searchParams.get(n));
  const { query, ok } = statementQuery(filters, { limit: 100 });
  if (!ok) return new Response("Filtro inválido.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });

  let body = CSV_BOM + csvLine(HEADER);
  let cursor: string | undefined;
  let rows = 0;
  do {
    const page = await listStatement(ctx, { ...query, cursor });
    for (const e of page.data) {
      body += csvLine([
        csvField(csvDateTime(e.createdAt)),
        csvField(ENTRY_TYPE_LABEL[e.type] ?? e.type, { text: true }),
        csvField(entryDescription(e), { text: true }),
        csvField(ACCOUNT_LABEL[e.account] ?? e.account),
        csvField(decimalComma(e.amount)),
        csvField(decimalComma(e.balanceAfter)),
        csvField(e.amount),
        csvField(e.balanceAfter),
        csvField(e.transactionId),
        csvField(e.cashOutId),
        csvField(e.id),
      ]);
    }
    rows += page.data.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && rows < MAX_ROWS);

  const name = `extrato-arara-${localDate(ctx.now)}.csv`;
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}
