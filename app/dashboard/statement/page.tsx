import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ServiceError } from "@/lib/services/errors";
import { requireSession } from "@/lib/auth/session";
import { listStatement } from "@/lib/services/accounts/list-statement";
import { ENTRY_TYPES } from "@/lib/domain/ledger";
import { merchantFunds } from "@/components/dashboard/funds";
import { Badge } from "@/components/dashboard/Badge";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { ACCOUNT_LABEL, ENTRY_TYPE_LABEL, formatBRL } from "@/components/dashboard/format";
import { DateRangeFields, FilterActions, FilterSelect, InvalidFiltersAlert } from "@/components/dashboard/Filters";
import { DateCell, EmptyState, ListTable, type ListColumn } from "@/components/dashboard/ListTable";
import { entryDescription } from "@/components/dashboard/statement-text";
import { statementFilters, statementQuery, statementSearch } from "@/components/dashboard/statement-filters";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Extrato" };

const PAGE_SIZE = 50;

const ACCOUNT_OPTIONS = [
  ["available", "Disponível"],
  ["waiting_funds", "A receber"],
  ["all", "Todos"],
] as const;
/** For an account with money at its own PSP (or that receives PIX there): that balance too. */
const ACCOUNT_OPTIONS_WITH_PSP = [...ACCOUNT_OPTIONS.slice(0, 2), ["available_at_psp", "No seu PSP"], ...ACCOUNT_OPTIONS.slice(2)] as const;

const COLUMNS: ListColumn[] = [{ label: "Data" }, { label: "Descrição" }, { label: "Tipo" }, { label: "Valor", num: true }, { label: "Saldo após", num: true }];
/** With every account listed, each entry says which balance it is in. */
const COLUMNS_ALL_ACCOUNTS: ListColumn[] = [...COLUMNS.slice(0, 3), { label: "Saldo" }, ...COLUMNS.slice(3)];

export default async function StatementPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const filters = statementFilters((n) => sp[n]);
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  const { query, ok } = statementQuery(filters, { cursor, limit: PAGE_SIZE });
  const search = statementSearch(filters);
  const firstHref = `/dashboard/statement${search.size ? `?${search}` : ""}`;
  const [page, { balance, showsPsp }] = await Promise.all([
    listStatement(ctx, query).catch((err: unknown) => {
      // A cursor edited by hand or from another filter: the first page, not an error page.
      if (cursor && err instanceof ServiceError && err.code === "validation_error") redirect(firstHref);
      throw err;
    }),
    merchantFunds(ctx),
  ]);
  const withPsp = showsPsp || filters.account === "available_at_psp";
  const exportHref = `/dashboard/statement/export${search.size ? `?${search}` : ""}`;
  const nextHref = page.nextCursor ? `/dashboard/statement?${new URLSearchParams([...search, ["cursor", page.nextCursor]])}` : null;
  const filtered = Boolean(filters.from || filters.to || filters.type || filters.account !== "available");

  return (
    <>
      <PageHeader
        title="Extrato"
        description="Cada entrada e saída do seu saldo, com o saldo após cada lançamento."
        actions={
          <a href={exportHref} className={`${ui.button} ${ui.secondary}`} download data-testid="statement-export">
            Exportar CSV
          </a>
        }
      />
      <div className={`${ui.grid} ${withPsp ? ui.grid3 : ui.grid2}`} style={{ marginBottom: 16 }}>
        <div className={`${ui.card} ${ui.stat}`}>
          <span className={ui.statLabel}>Saldo disponível</span>
          <span className={ui.statValue}>{formatBRL(balance.available)}</span>
          {withPsp && <span className={ui.statHint}>Mantido pela Arara</span>}
        </div>
        {withPsp && (
          <div className={`${ui.card} ${ui.stat}`} data-testid="statement-at-psp">
            <span className={ui.statLabel}>Na sua conta do PSP</span>
            <span className={ui.statValue}>{formatBRL(balance.availableAtPsp)}</span>
            <span className={ui.statHint}>PIX recebidos no seu PSP</span>
          </div>
        )}
        <div className={`${ui.card} ${ui.stat}`}>
          <span className={ui.statLabel}>A receber (cartão)</span>
          <span className={ui.statValue}>{formatBRL(balance.waitingFunds)}</span>
          {withPsp && <span className={ui.statHint}>Vendas no cartão aguardando liberação</span>}
        </div>
      </div>
      <div className={`${ui.card} ${ui.cardFlush}`}>
        <form className={ui.filters} method="get" aria-label="Filtrar extrato">
          <FilterSelect id="account" label="Saldo" value={filters.account} options={withPsp ? ACCOUNT_OPTIONS_WITH_PSP : ACCOUNT_OPTIONS} />
          <FilterSelect id="type" label="Tipo" value={filters.type} anyLabel="Todos" options={ENTRY_TYPES.map((t) => [t, ENTRY_TYPE_LABEL[t]] as const)} />
          <DateRangeFields from={filters.from} to={filters.to} />
          <div />
          <FilterActions clearHref="/dashboard/statement" filtered={filtered} />
        </form>
        {!ok && <InvalidFiltersAlert />}
        {page.data.length === 0 ? (
          <EmptyState title="Nenhum lançamento">
            {filtered || cursor ? "Nada encontrado com estes filtros." : "Os pagamentos recebidos aparecem aqui."}
            {withPsp && filters.account === "available" && (
              <>
                {" "}
                Os PIX recebidos no seu PSP estão em <Link href="/dashboard/statement?account=available_at_psp">No seu PSP</Link>.
              </>
            )}
          </EmptyState>
        ) : (
          <ListTable testId="statement-table" columns={filters.account === "all" ? COLUMNS_ALL_ACCOUNTS : COLUMNS}>
            {page.data.map((e) => (
              <tr key={e.id} data-entry-type={e.type}>
                <DateCell at={e.createdAt} />
                <td data-label="Descrição">
                  {e.transactionId !== null ? (
                    <Link href={`/dashboard/transactions/${e.transactionId}`} className={ui.rowLink} style={{ fontWeight: 500 }}>
                      {entryDescription(e)}
                    </Link>
                  ) : e.cashOutId !== null ? (
                    <Link href={`/dashboard/cash-out/${e.cashOutId}`} className={ui.rowLink} style={{ fontWeight: 500 }}>
                      {entryDescription(e)}
                    </Link>
                  ) : (
                    entryDescription(e)
                  )}
                </td>
                <td data-label="Tipo">{ENTRY_TYPE_LABEL[e.type] ?? e.type}</td>
                {filters.account === "all" && (
                  <td data-label="Saldo">
                    {e.account === "available_at_psp" ? <Badge tone="info">{ACCOUNT_LABEL[e.account]}</Badge> : ACCOUNT_LABEL[e.account]}
                  </td>
                )}
                <td data-label="Valor" className={`${ui.num} ${e.amount < 0 ? ui.negative : ui.positive}`}>
                  {e.amount > 0 ? "+" : ""}
                  {formatBRL(e.amount)}
                </td>
                <td data-label="Saldo após" className={ui.num}>
                  {formatBRL(e.balanceAfter)}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
        {(nextHref || cursor) && (
          <nav className={ui.pagination} aria-label="Paginação">
            <span>Do mais recente para o mais antigo</span>
            <span className={ui.buttonRow}>
              {cursor && (
                <Link className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} href={firstHref}>
                  ← Mais recentes
                </Link>
              )}
              {nextHref && (
                <Link className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} href={nextHref} rel="next">
                  Mais antigos →
                </Link>
              )}
            </span>
          </nav>
        )}
      </div>
    </>
  );
}
