import type { TransactionRow } from "@/lib/services/transactions/transaction-view";
import { formatBRL } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

export function ItemsCard({ t }: { t: TransactionRow }) {
  return (
    <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="itens">
      <h2 id="itens" style={{ padding: "20px 20px 0" }}>
        Itens
      </h2>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${ui.stack}`}>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" className={ui.num}>
                Qtd.
              </th>
              <th scope="col" className={ui.num}>
                Unitário
              </th>
              <th scope="col" className={ui.num}>
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {t.items.map((item, i) => (
              <tr key={i}>
                <td data-label="Item">
                  {item.title}
                  <span className={`${ui.muted} ${ui.small}`}> · {item.tangible ? "físico" : "digital/serviço"}</span>
                </td>
                <td data-label="Qtd." className={ui.num}>
                  {item.quantity}
                </td>
                <td data-label="Unitário" className={ui.num}>
                  {formatBRL(item.unitPrice)}
                </td>
                <td data-label="Total" className={ui.num}>
                  {formatBRL(item.unitPrice * item.quantity)}
                </td>
              </tr>
            ))}
            {t.shipping?.fee ? (
              <tr>
                <td data-label="Item">Frete</td>
                <td data-label="" className={ui.num} />
                <td data-label="" className={ui.num} />
                <td data-label="Total" className={ui.num}>
                  {formatBRL(t.shipping.fee)}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  );
}
