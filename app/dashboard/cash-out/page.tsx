import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { getBalance } from "@/lib/services/accounts/get-balance";
import { listCashOuts } from "@/lib/services/cash-outs/list-cash-outs";
import { ListCashOutsQuery } from "@/lib/schemas/money";
import { computeCashOutFee } from "@/lib/domain/fees";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Pagination } from "@/components/dashboard/Pagination";
import { StatusBadge } from "@/components/dashboard/Badge";
import { CASH_OUT_STATUS_LABEL, formatBRL, formatDateTime, PIX_KEY_TYPE_LABEL } from "@/components/dashboard/format";
import { newFormKey } from "@/lib/auth/idempotent-action";
import { CashOutForm } from "./CashOutForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Saques" };

export default async function CashOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const parsed = ListCashOutsQuery.safeParse({ page: typeof sp.page === "string" ? sp.page : "1", limit: "20" });
  const query = parsed.success ? parsed.data : ListCashOutsQuery.parse({});
  const [balance, { rows, pagination }] = await Promise.all([getBalance(ctx), listCashOuts(ctx, query)]);
  const fee = computeCashOutFee(ctx.account.feePlan);

  return (
    <>
      <PageHeader title="Saques" description="Transfira o saldo disponível para qualquer chave PIX." />
      <div className={`${ui.split} ${ui.splitFormFirst}`}>
        <section className={ui.card} aria-labelledby="novo-saque">
          <h2 id="novo-saque">Novo saque PIX</h2>
          <div className={ui.stat} style={{ marginBottom: 16 }}>
            <span className={ui.statLabel}>Disponível para saque</span>
            <span className={ui.statValue} data-testid="cash-out-available">
              {formatBRL(balance.available)}
            </span>
          </div>
          <CashOutForm available={balance.available} fee={fee} formKey={newFormKey()} />
        </section>
        <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="historico">
          <h2 id="historico" style={{ padding: "20px 20px 0" }}>
            Histórico
          </h2>
          {rows.length === 0 ? (
            <div className={ui.empty}>
              <strong>Nenhum saque ainda</strong>
              Os saques solicitados aparecem aqui com o status da transferência.
            </div>
          ) : (
            <div className={ui.tableWrap}>
              <table className={`${ui.table} ${ui.stack}`} data-testid="cash-outs-table">
                <thead>
                  <tr>
                    <th scope="col">Nº</th>
                    <th scope="col">Data</th>
                    <th scope="col">Destino</th>
                    <th scope="col">Status</th>
                    <th scope="col" className={ui.num}>
                      Valor
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((c) => (
                    <tr key={c.id} data-cash-out-id={c.id} className={ui.rowTap}>
                      <td data-label="Nº">
                        <Link href={`/dashboard/cash-out/${c.id}`} className={ui.rowLink}>
                          #{c.id}
                        </Link>
                      </td>
                      <td data-label="Data" className={ui.nowrap}>
                        {formatDateTime(c.createdAt)}
                      </td>
                      <td data-label="Destino">
                        <div className={ui.mono}>{c.pixKey}</div>
                        <div className={`${ui.muted} ${ui.small}`}>
                          {PIX_KEY_TYPE_LABEL[c.pixKeyType] ?? c.pixKeyType}
                          {c.description ? ` · ${c.description}` : ""}
                        </div>
                      </td>
                      <td data-label="Status">
                        <StatusBadge status={c.status} labels={CASH_OUT_STATUS_LABEL} />
                      </td>
                      <td data-label="Valor" className={ui.num}>
                        <strong>{formatBRL(c.amount)}</strong>
                        {c.fee > 0 && <div className={`${ui.small} ${ui.muted}`}>tarifa {formatBRL(c.fee)}</div>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination
            basePath="/dashboard/cash-out"
            params={{}}
            page={pagination.page}
            totalPages={pagination.totalPages}
            total={pagination.total}
            noun={["saque", "saques"]}
          />
        </section>
      </div>
    </>
  );
}
