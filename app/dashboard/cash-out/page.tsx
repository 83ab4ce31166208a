import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { listCashOuts } from "@/lib/services/cash-outs/list-cash-outs";
import { ListCashOutsQuery } from "@/lib/schemas/money";
import { computeCashOutFee } from "@/lib/domain/fees";
import { merchantFunds } from "@/components/dashboard/funds";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Pagination } from "@/components/dashboard/Pagination";
import { StatusBadge } from "@/components/dashboard/Badge";
import { fundsAccountOfCashOut } from "@/lib/domain/ledger";
import { CASH_OUT_STATUS_LABEL, formatBRL, PIX_KEY_TYPE_LABEL } from "@/components/dashboard/format";
import { AmountCell, DateCell, EmptyState, IdCell, ListTable, type ListColumn } from "@/components/dashboard/ListTable";
import { newFormKey } from "@/lib/auth/idempotent-action";
import { cashOutWaiting } from "@/lib/services/cash-outs/psp-waiting";
import { CashOutForm } from "./CashOutForm";
import { CashOutWaitingLine } from "./CashOutWaitingNotice";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Saques" };

const COLUMNS: ListColumn[] = [{ label: "Nº" }, { label: "Data" }, { label: "Destino" }, { label: "Status" }, { label: "Valor", num: true }];

export default async function CashOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const parsed = ListCashOutsQuery.safeParse({ page: typeof sp.page === "string" ? sp.page : "1", limit: "20" });
  const query = parsed.success ? parsed.data : ListCashOutsQuery.parse({});
  const [funds, { rows, pagination }] = await Promise.all([merchantFunds(ctx), listCashOuts(ctx, query)]);
  const fee = computeCashOutFee(ctx.account.feePlan);

  return (
    <>
      <PageHeader title="Saques" description="Transfira o saldo disponível para qualquer chave PIX." />
      <div className={`${ui.split} ${ui.splitFormFirst}`}>
        <section className={ui.card} aria-labelledby="novo-saque">
          <h2 id="novo-saque">Novo saque PIX</h2>
          <CashOutForm
            balances={{ arara: funds.balance.available, psp: funds.balance.availableAtPsp }}
            sources={funds.showsPsp ? { defaultSource: funds.defaultSource, pspReady: funds.sendsFromPsp } : null}
            fee={fee}
            formKey={newFormKey()}
          />
        </section>
        <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="historico">
          <h2 id="historico" style={{ padding: "20px 20px 0" }}>
            Histórico
          </h2>
          {rows.length === 0 ? (
            <EmptyState title="Nenhum saque ainda">Os saques solicitados aparecem aqui com o status da transferência.</EmptyState>
          ) : (
            <ListTable testId="cash-outs-table" columns={COLUMNS}>
              {rows.map((c) => {
                const waiting = cashOutWaiting(c, c.psp);
                return (
                  <tr key={c.id} data-cash-out-id={c.id} className={ui.rowTap}>
                    <IdCell id={c.id} href={`/dashboard/cash-out/${c.id}`} />
                    <DateCell at={c.createdAt} stacked />
                    <td data-label="Destino">
                      <div className={ui.mono}>{c.pixKey}</div>
                      <div className={`${ui.muted} ${ui.small}`}>
                        {PIX_KEY_TYPE_LABEL[c.pixKeyType] ?? c.pixKeyType}
                        {c.description ? ` · ${c.description}` : ""}
                        {funds.showsPsp && ` · ${fundsAccountOfCashOut(c) === "available_at_psp" ? "do saldo no seu PSP" : "do saldo na Arara"}`}
                      </div>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={c.status} labels={CASH_OUT_STATUS_LABEL} />
                      {waiting && <CashOutWaitingLine waiting={waiting} />}
                    </td>
                    <AmountCell amount={c.amount} note={c.fee > 0 && `tarifa ${formatBRL(c.fee)}`} />
                  </tr>
                );
              })}
            </ListTable>
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
