import type { ReactNode } from "react";
import { formatBRL } from "@/lib/domain/money";
import type { PayerOrder } from "@/lib/services/checkouts/checkout-page";
import { dictionary, type Locale } from "./i18n";
import { ChevronDownIcon } from "./icons";
import s from "./checkout.module.css";

/** The amount first (what the payer checks), the items one tap away. */
export function OrderSummary({
  locale,
  order,
  label,
  note,
  status,
}: {
  locale: Locale;
  order: PayerOrder;
  label?: string;
  note?: string | null;
  status?: ReactNode;
}) {
  const t = dictionary(locale);
  const count = order.items.reduce((n, i) => n + i.quantity, 0);
  return (
    <section className={s.panel} aria-labelledby="order-total-label">
      <div className={s.summaryRow}>
        <div>
          <p className={s.amountLabel} id="order-total-label">
            {label ?? t.totalToPay}
          </p>
          <p className={s.amount} data-testid="order-amount">
            {formatBRL(order.amount)}
          </p>
        </div>
        {status}
      </div>
      {order.description ? <p className={s.description}>{order.description}</p> : null}
      {order.shipping > 0 || order.discount > 0 ? (
        // The total explained: items, shipping and discount add up to the amount above.
        <dl className={s.lines} aria-label={t.lines.label} data-testid="order-lines">
          <div>
            <dt>
              {t.lines.items} ({t.items(count)})
            </dt>
            <dd data-testid="line-items">{formatBRL(order.subtotal)}</dd>
          </div>
          {order.shipping > 0 ? (
            <div>
              <dt>{t.lines.shipping}</dt>
              <dd data-testid="line-shipping">{formatBRL(order.shipping)}</dd>
            </div>
          ) : null}
          {order.discount > 0 ? (
            <div>
              <dt>{t.lines.discount}</dt>
              <dd data-testid="line-discount">−{formatBRL(order.discount)}</dd>
            </div>
          ) : null}
          <div className={s.linesTotal}>
            <dt>{t.lines.total}</dt>
            <dd data-testid="line-total">{formatBRL(order.amount)}</dd>
          </div>
        </dl>
      ) : null}
      {note ? <p className={s.subtle}>{note}</p> : null}
      {order.items.length > 0 ? (
        <details className={s.items}>
          <summary>
            <span>
              {t.showItems} ({t.items(count)})
            </span>
            <ChevronDownIcon className={s.chevron} />
          </summary>
          <ul className={s.itemList}>
            {order.items.map((item, i) => (
              <li className={s.item} key={i}>
                <span className={s.itemTitle}>
                  {item.title}
                  {item.quantity > 1 ? <span className={s.itemQty}>{t.quantity(item.quantity)} × {formatBRL(item.unitPrice)}</span> : null}
                </span>
                <span className={s.itemPrice}>{formatBRL(item.unitPrice * item.quantity)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
