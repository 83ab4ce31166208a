import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { listTransactions } from "@/lib/services/transactions/list-transactions";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@/lib/domain/status";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Pagination } from "@/components/dashboard/Pagination";
import { StatusBadge } from "@/components/dashboard/Badge";
import { TRANSACTION_FILTER_LABEL, transactionFilters, transactionQuery, transactionSearch } from "@/components/dashboard/transaction-filters";
import { displayStatus, formatBRL, METHOD_LABEL, STATUS_LABEL, TX_STATUS_LABEL } from "@/components/dashboard/format";
import { DateRangeFields, FilterActions, FilterSelect, InvalidFiltersAlert, ReversedRangeAlert } from "@/components/dashboard/Filters";
import { AmountCell, DateCell, EmptyState, IdCell, ListTable, type ListColumn } from "@/components/dashboard/ListTable";
import { MAX_EXPORT_ROWS } from "@/lib/services/transactions/transactions-csv";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Transações" };

type SP = Promise<Record<string, string | string[] | undefined>>;

const COLUMNS: ListColumn[] = [
  { label: "Nº" },
  { label: "Data" },
  { label: "Cliente" },
  { label: "Meio" },
  { label: "Status" },
  { label: "Valor", num: true },
];

const one = (v: string | string[] | undefined) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

export default async function TransactionsPage({ searchParams }: { searchParams: SP }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const filters = transactionFilters((n) => sp[n]);
  const { query, opts, invalid, reversed } = transactionQuery(filters, { page: one(sp.page) ?? "1", limit: 20 });
  const { rows, pagination } = await listTransactions(ctx, query, { ...opts, now: ctx.now });
  const exportSearch = transactionSearch(filters).toString();
  const filtered = Object.values(filters).some(Boolean);
  const hrefOf = (f: typeof filters, page = 1) => {
    const q = transactionSearch(f);
    if (page > 1) q.set("page", String(page));
    return q.size ? `/dashboard/transactions?${q}` : "/dashboard/transactions";
  };
  // A page number past the last one (an old link, a hand-typed URL): said, with the way to the last page.
  const beyondLast = rows.length === 0 && pagination.total > 0 && query.page > pagination.totalPages;

  return (
    <>
      <PageHeader
        title="Transações"
        description="Cobranças por PIX, boleto e cartão, da mais recente para a mais antiga."
        actions={
          <a
            href={`/dashboard/transactions/export${exportSearch ? `?${exportSearch}` : ""}`}
            className={`${ui.button} ${ui.secondary}`}
            download
            data-testid="transactions-export"
            title={`As transações dos filtros atuais, todas as páginas (até ${MAX_EXPORT_ROWS.toLocaleString("pt-BR")})`}
          >
            Exportar CSV
          </a>
        }
      />
      <div className={`${ui.card} ${ui.cardFlush}`}>
        <form className={ui.filters} role="search" aria-label="Filtrar transações" method="get">
          <div className={ui.field}>
            <label htmlFor="q">Buscar</label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={filters.q}
              placeholder="Nome, e-mail, CPF/CNPJ, telefone, referência ou nº"
              className={ui.input}
            />
          </div>
          <FilterSelect
            id="status"
            label="Status"
            value={filters.status}
            anyLabel="Todos"
            options={TRANSACTION_STATUSES.filter((s) => s !== "approved").flatMap((s): [string, string][] =>
              s === "pending" ? [[s, STATUS_LABEL[s]], ["expired", TX_STATUS_LABEL.expired]] : [[s, STATUS_LABEL[s]]],
            )}
          />
          <FilterSelect id="paymentMethod" label="Meio" value={filters.paymentMethod} anyLabel="Todos" options={PAYMENT_METHODS.map((m) => [m, METHOD_LABEL[m]] as const)} />
          <DateRangeFields from={filters.from} to={filters.to} />
          <FilterActions clearHref="/dashboard/transactions" filtered={filtered} />
        </form>
        {invalid.length > 0 && <InvalidFiltersAlert names={invalid.map((k) => TRANSACTION_FILTER_LABEL[k])} />}
        {reversed && filters.from && filters.to ? (
          <ReversedRangeAlert from={filters.from} to={filters.to} swapHref={hrefOf({ ...filters, from: filters.to, to: filters.from })} />
        ) : beyondLast ? (
          <div className={ui.empty} data-testid="beyond-last-page">
            <strong>Página além da última</strong>
            <span>
              {pagination.totalPages === 1 ? "A lista tem uma página só" : `A lista tem ${pagination.totalPages} páginas`}
              {filtered ? " com estes filtros" : ""}; a página {query.page} não existe.
            </span>
            <div style={{ marginTop: 12 }}>
              <Link href={hrefOf(filters, pagination.totalPages)} className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`}>
                Ir para a última página ({pagination.totalPages})
              </Link>
            </div>
          </div>
        ) : rows.length === 0 ? (
          <EmptyState title={filtered ? "Nenhuma transação encontrada" : "Nenhuma transação ainda"}>
            {filtered ? "Tente outros filtros." : "Crie uma cobrança pela API ou compartilhe um link de pagamento."}
          </EmptyState>
        ) : (
          <ListTable testId="transactions-table" columns={COLUMNS}>
            {rows.map((t) => (
              <tr key={t.id} data-transaction-id={t.id} className={ui.rowTap}>
                <IdCell id={t.id} href={`/dashboard/transactions/${t.id}`} />
                <DateCell at={t.createdAt} />
                <td data-label="Cliente">
                  <div>{t.customer.name}</div>
                  <div className={`${ui.muted} ${ui.small}`}>{t.customer.email}</div>
                </td>
                <td data-label="Meio">{METHOD_LABEL[t.paymentMethod] ?? t.paymentMethod}</td>
                <td data-label="Status">
                  <StatusBadge status={displayStatus(t, ctx.now)} labels={TX_STATUS_LABEL} />
                </td>
                <AmountCell amount={t.amount} note={t.refundedAmount > 0 && `reemb. ${formatBRL(t.refundedAmount)}`} />
              </tr>
            ))}
          </ListTable>
        )}
        {!beyondLast && !reversed && (
          <Pagination
            basePath="/dashboard/transactions"
            params={filters}
            page={pagination.page}
            totalPages={pagination.totalPages}
            total={pagination.total}
            noun={["transação", "transações"]}
          />
        )}
      </div>
    </>
  );
}
