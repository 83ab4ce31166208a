import { CSV_BOM, csvDateTime, csvField, csvLine, decimalComma } from "@/lib/core/csv";
import { formatDocument } from "@/lib/domain/documents";
import { paymentCreditOf } from "@/lib/domain/net-amount";
import { displayStatus, formatPhone, METHOD_LABEL, TX_STATUS_LABEL } from "@/lib/domain/transaction-labels";
import type { ServiceContext } from "../context";
import { localDate } from "../dashboard/dashboard-overview";
import { listTransactions, type ListTransactionsQuery, type PendingExpiry } from "./list-transactions";
import type { TransactionRow } from "./transaction-view";

/** At most this many rows, newest first; the file says so on its last line when there were more. */
export const MAX_EXPORT_ROWS = 50_000;
/** Rows read per statement (the keyset cursor of listTransactions). */
const PAGE = 500;

export const TRANSACTIONS_CSV_HEADER = [
  "id",
  "criada_em",
  "status",
  "meio",
  "valor",
  "valor_pago",
  "tarifa",
  "liquido",
  "parcelas",
  "cliente",
  "email",
  "documento",
  "telefone",
  "referencia_externa",
  "pago_em",
  "reembolsado",
  "valor_centavos",
  "valor_pago_centavos",
  "tarifa_centavos",
  "liquido_centavos",
  "reembolsado_centavos",
];

/** A charge that never took money (open, processing, refused) has no fee and no net yet. */
const NEVER_PAID = new Set(["pending", "processing", "refused"]);

function row(t: TransactionRow, now: Date): string {
  const charged = !NEVER_PAID.has(t.status);
  // The fee kept (on refunds too: docs/money.md) and the payment's credit, the statement's figures.
  const fee = charged ? t.feeEstimated : null;
  const net = charged ? paymentCreditOf(t) : null;
  const money = (cents: number | null) => (cents === null ? "" : csvField(decimalComma(cents)));
  return csvLine([
    csvField(t.id),
    csvField(csvDateTime(t.createdAt)),
    csvField(TX_STATUS_LABEL[displayStatus(t, now)] ?? t.status, { text: true }),
    csvField(METHOD_LABEL[t.paymentMethod] ?? t.paymentMethod, { text: true }),
    money(t.amount),
    money(t.paidAmount),
    money(fee),
    money(net),
    csvField(t.installments),
    csvField(t.customer.name, { text: true }),
    csvField(t.customerEmail, { text: true }),
    csvField(formatDocument(t.customer.document?.number ?? t.customerDocument), { text: true }),
    csvField(t.customer.phone ? formatPhone(t.customer.phone) : null, { text: true }),
    csvField(t.externalRef, { text: true }),
    csvField(t.paidAt ? csvDateTime(t.paidAt) : null),
    money(t.refundedAmount),
    csvField(t.amount),
    csvField(t.paidAmount),
    csvField(fee),
    csvField(net),
    csvField(t.refundedAmount),
  ]);
}

/**
 * The transactions these filters select, as CSV for a spreadsheet in Brazil (lib/core/csv.ts: BOM,
 * ";", decimal comma plus centavo columns, formulas neutralised), newest first, streamed a page at a
 * time through the keyset cursor: at most `max` rows, with a last line saying the file was cut when
 * more matched. Scoped to `ctx.account` by listTransactions, as every dashboard list.
 */
export async function transactionsCsvStream(
  ctx: Pick<ServiceContext, "account" | "now">,
  { query, opts }: { query: ListTransactionsQuery; opts: Pick<PendingExpiry, "pendingExpiry"> },
  max = MAX_EXPORT_ROWS,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let cursor: string | null = "";
  let written = 0;
  /** The next page's lines (and the cut's line when the file is full); cursor null once there is no more. */
  const nextPage = async (): Promise<string> => {
    const { rows, pagination } = await listTransactions(ctx, { ...query, page: 1, limit: Math.min(PAGE, max - written), cursor: cursor ?? "" }, { ...opts, now: ctx.now });
    written += rows.length;
    let text = rows.map((t) => row(t, ctx.now)).join("");
    cursor = pagination.nextCursor ?? null;
    if (cursor !== null && written >= max) {
      // More rows match than the file holds: the spreadsheet's last line says so.
      text += csvLine([
        csvField(`Exportação limitada às ${max.toLocaleString("pt-BR")} transações mais recentes; filtre por período (De, Até) para exportar as demais.`, { text: true }),
      ]);
      cursor = null;
    }
    return text;
  };
  // The first page is read before the answer starts: a query that fails is an error status, never a
  // 200 download cut short (which a spreadsheet would show as "no transactions").
  const first = CSV_BOM + csvLine(TRANSACTIONS_CSV_HEADER) + (await nextPage());
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const text = started ? await nextPage() : first;
      started = true;
      if (text) controller.enqueue(encoder.encode(text));
      if (cursor === null) controller.close();
    },
  });
}

export function transactionsCsvFilename(now: Date): string {
  return `transacoes-arara-${localDate(now)}.csv`;
}
