import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { ListTransactionsQuery, listTransactions } from "@/lib/services/transactions/list-transactions";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@/lib/domain/status";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Pagination } from "@/components/dashboard/Pagination";
import { StatusBadge } from "@/components/dashboard/Badge";
import { endOfDayBR, startOfDayBR } from "@/components/dashboard/dates";
import { displayStatus, formatBRL, formatDateTime, METHOD_LABEL, STATUS_LABEL, TX_STATUS_LABEL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Transações" };

type SP = Promise<Record<string, string | string[] | undefined>>;

const one = (v: string | string[] | undefined) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

export default async function TransactionsPage({ searchParams }: { searchParams: SP }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const filters = {
    q: one(sp.q),
    status: one(sp.status),
    paymentMethod: one(sp.paymentMethod),
    from: one(sp.from),
    to: one(sp.to),
  };
  const parsed = ListTransactionsQuery.safeParse({
    ...filters,
    from: startOfDayBR(filters.from),
    to: endOfDayBR(filters.to),
    page: one(sp.page) ?? "1",
    limit: "20",
  });
  const query = parsed.success ? parsed.data : ListTransactionsQuery.parse({ page: "1", limit: "20" });
  const { rows, pagination } = await listTransactions(ctx, query);
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader title="Transações" description="Cobranças por PIX, boleto e cartão, da mais recente para a mais antiga." />
      <div className={`${ui.card} ${ui.cardFlush}`}>
        <form className={ui.filters} role="search" aria-label="Filtrar transações" method="get">
          <div className={ui.field}>
            <label htmlFor="q">Buscar</label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={filters.q}
              placeholder="Nome, e-mail, CPF/CNPJ, referência ou nº"
              className={ui.input}
            />
          </div>
          <div className={ui.field}>
            <label htmlFor="status">Status</label>
            <select id="status" name="status" defaultValue={filters.status ?? ""} className={ui.select}>
              <option value="">Todos</option>
              {TRANSACTION_STATUSES.filter((s) => s !== "approved").map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </div>
          <div className={ui.field}>
            <label htmlFor="paymentMethod">Meio</label>
            <select id="paymentMethod" name="paymentMethod" defaultValue={filters.paymentMethod ?? ""} className={ui.select}>
              <option value="">Todos</option>
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {METHOD_LABEL[m]}
                </option>
              ))}
            </select>
          </div>
          <div className={ui.field}>
            <label htmlFor="from">De</label>
            <input id="from" name="from" type="date" defaultValue={filters.from} className={ui.input} />
          </div>
          <div className={ui.field}>
            <label htmlFor="to">Até</label>
            <input id="to" name="to" type="date" defaultValue={filters.to} className={ui.input} />
          </div>
          <div className={ui.filterActions}>
            <button type="submit" className={ui.button}>
              Filtrar
            </button>
            {filtered && (
              <Link href="/dashboard/transactions" className={`${ui.button} ${ui.secondary}`}>
                Limpar
              </Link>
            )}
          </div>
        </form>
        {!parsed.success && (
          <div className={`${ui.alert} ${ui.alertWarning}`} style={{ margin: 16 }} role="status">
            Algum filtro tem um valor inválido e foi ignorado.
          </div>
        )}
        {rows.length === 0 ? (
          <div className={ui.empty}>
            <strong>{filtered ? "Nenhuma transação encontrada" : "Nenhuma transação ainda"}</strong>
            {filtered ? "Tente outros filtros." : "Crie uma cobrança pela API ou compartilhe um link de pagamento."}
          </div>
        ) : (
          <div className={ui.tableWrap}>
            <table className={`${ui.table} ${ui.stack}`} data-testid="transactions-table">
              <thead>
                <tr>
                  <th scope="col">Nº</th>
                  <th scope="col">Data</th>
                  <th scope="col">Cliente</th>
                  <th scope="col">Meio</th>
                  <th scope="col">Status</th>
                  <th scope="col" className={ui.num}>
                    Valor
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr key={t.id} data-transaction-id={t.id} className={ui.rowTap}>
                    <td data-label="Nº">
                      <Link href={`/dashboard/transactions/${t.id}`} className={ui.rowLink}>
                        #{t.id}
                      </Link>
                    </td>
                    <td data-label="Data" className={ui.nowrap}>
                      {formatDateTime(t.createdAt)}
                    </td>
                    <td data-label="Cliente">
                      <div>{t.customer.name}</div>
                      <div className={`${ui.muted} ${ui.small}`}>{t.customer.email}</div>
                    </td>
                    <td data-label="Meio">{METHOD_LABEL[t.paymentMethod] ?? t.paymentMethod}</td>
                    <td data-label="Status">
                      <StatusBadge status={displayStatus(t, ctx.now)} labels={TX_STATUS_LABEL} />
                    </td>
                    <td data-label="Valor" className={ui.num}>
                      <strong>{formatBRL(t.amount)}</strong>
                      {t.refundedAmount > 0 && (
                        <div className={`${ui.small} ${ui.muted}`}>reemb. {formatBRL(t.refundedAmount)}</div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          basePath="/dashboard/transactions"
          params={filters}
          page={pagination.page}
          totalPages={pagination.totalPages}
          total={pagination.total}
          noun={["transação", "transações"]}
        />
      </div>
    </>
  );
}
