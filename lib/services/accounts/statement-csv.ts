import { CSV_BOM, csvDateTime, csvField, csvLine, decimalComma } from "@/lib/core/csv";
import { ACCOUNT_LABEL, ENTRY_TYPE_LABEL, entryDescription } from "@/lib/domain/statement-labels";
import type { StatementQuery } from "@/lib/schemas/money";
import type { ServiceContext } from "../context";
import { localDate } from "../dashboard/dashboard-overview";
import { listStatement } from "./list-statement";

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

/**
 * The statement as CSV for a spreadsheet in Brazil (see `lib/core/csv.ts`): every entry the query
 * selects, page by page through the statement's cursor, at most MAX_ROWS rows; and its file name.
 */
export async function statementCsv(ctx: Pick<ServiceContext, "account" | "now">, query: StatementQuery): Promise<{ filename: string; csv: string }> {
  let csv = CSV_BOM + csvLine(HEADER);
  let cursor: string | undefined;
  let rows = 0;
  do {
    const page = await listStatement(ctx, { ...query, cursor });
    for (const e of page.data) {
      csv += csvLine([
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
  return { filename: `extrato-arara-${localDate(ctx.now)}.csv`, csv };
}
