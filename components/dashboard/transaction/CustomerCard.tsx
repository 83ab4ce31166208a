import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import { formatDocument, formatPhone } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

export function CustomerCard({ t }: { t: TransactionRow }) {
  return (
    <section className={ui.card} aria-labelledby="cliente">
      <h2 id="cliente">Cliente</h2>
      <dl className={ui.dl}>
        <dt>Nome</dt>
        <dd>{t.customer.name}</dd>
        <dt>E-mail</dt>
        <dd>{t.customer.email}</dd>
        <dt>{t.customer.document.type === "cnpj" ? "CNPJ" : "CPF"}</dt>
        <dd>{formatDocument(t.customer.document.number)}</dd>
        <dt>Telefone</dt>
        <dd>{formatPhone(t.customer.phone)}</dd>
        {t.externalRef && (
          <>
            <dt>Sua referência</dt>
            <dd className={ui.mono}>{t.externalRef}</dd>
          </>
        )}
        {t.ip && (
          <>
            <dt>IP</dt>
            <dd className={ui.mono}>{t.ip}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
