import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { listCheckouts } from "@/lib/services/checkouts/list-checkouts";
import { checkoutUrlOf } from "@/lib/services/checkouts/checkout-view";
import { ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Pagination } from "@/components/dashboard/Pagination";
import { StatusBadge } from "@/components/dashboard/Badge";
import { CopyButton } from "@/components/ui/CopyButton";
import { CHECKOUT_STATUS_LABEL, formatBRL, formatDate, formatDateTime, METHOD_SHORT } from "@/components/dashboard/format";
import { PaymentLinkForm } from "./PaymentLinkForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Links de pagamento" };

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireSession();
  const sp = await searchParams;
  const parsed = ListCheckoutsQuery.safeParse({ page: typeof sp.page === "string" ? sp.page : "1", limit: "20" });
  const { rows, pagination } = await listCheckouts(ctx, parsed.success ? parsed.data : ListCheckoutsQuery.parse({}));

  return (
    <>
      <PageHeader
        title="Links de pagamento"
        description="Uma página de pagamento pronta: quem paga escolhe PIX, boleto ou cartão."
      />
      <div className={ui.split}>
        <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="links">
          <h2 id="links" style={{ padding: "20px 20px 0" }}>
            Seus links
          </h2>
          {rows.length === 0 ? (
            <div className={ui.empty}>
              <strong>Nenhum link ainda</strong>
              Crie o primeiro ao lado e envie por WhatsApp, e-mail ou redes sociais.
            </div>
          ) : (
            <div className={ui.tableWrap}>
              <table className={`${ui.table} ${ui.stack}`} data-testid="links-table">
                <thead>
                  <tr>
                    <th scope="col">Descrição</th>
                    <th scope="col">Status</th>
                    <th scope="col" className={ui.num}>
                      Valor
                    </th>
                    <th scope="col">Link</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ row, status, paidTransactionId, returnedTransactionIds }) => (
                    <tr key={row.id}>
                      <td data-label="Descrição">
                        <div style={{ fontWeight: 600 }}>{row.description || "Pagamento"}</div>
                        <div className={`${ui.muted} ${ui.small}`}>
                          {row.methods.map((m) => METHOD_SHORT[m] ?? m).join(" · ")} · criado em {formatDateTime(row.createdAt)}
                          {row.expiresAt ? ` · expira ${formatDate(row.expiresAt)}` : ""}
                        </div>
                      </td>
                      <td data-label="Status">
                        <StatusBadge status={status} labels={CHECKOUT_STATUS_LABEL} />
                        {paidTransactionId && (
                          <div className={ui.small}>
                            <Link href={`/dashboard/transactions/${paidTransactionId}`}>transação #{paidTransactionId}</Link>
                          </div>
                        )}
                        {returnedTransactionIds.length > 0 && (
                          <div className={`${ui.small} ${ui.muted}`} data-testid="returned-payments">
                            {returnedTransactionIds.length === 1 ? "Pagamento em duplicidade: " : "Pagamentos em duplicidade: "}
                            {returnedTransactionIds.map((id, i) => (
                              <span key={id}>
                                {i > 0 ? ", " : ""}
                                <Link href={`/dashboard/transactions/${id}`}>#{id}</Link>
                              </span>
                            ))}
                          </div>
                        )}
                      </td>
                      <td data-label="Valor" className={ui.num}>
                        <strong>{formatBRL(row.amount)}</strong>
                      </td>
                      <td data-label="Link">
                        <span className={ui.buttonRow} style={{ justifyContent: "flex-end" }}>
                          <a href={checkoutUrlOf(row.secureId)} target="_blank" rel="noreferrer" className={`${ui.button} ${ui.ghost} ${ui.buttonSmall}`}>
                            Abrir ↗
                          </a>
                          <CopyButton text={checkoutUrlOf(row.secureId)} label="Copiar link" copiedLabel="Copiado!" size="small" />
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination basePath="/dashboard/payment-links" params={{}} page={pagination.page} totalPages={pagination.totalPages} total={pagination.total} noun={["link", "links"]} />
        </section>
        <section className={ui.card} aria-labelledby="novo-link">
          <h2 id="novo-link">Novo link</h2>
          <PaymentLinkForm />
        </section>
      </div>
    </>
  );
}
