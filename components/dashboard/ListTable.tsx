import Link from "next/link";
import { LinkPending } from "./NavigationPending";
import type { ReactNode } from "react";
import { formatBRL, formatDateTime } from "./format";
import ui from "./ui.module.css";

// The pieces of the dashboard's lists: the table that stacks into cards on a phone, its empty
// state, and the cells several lists show alike.

export type ListColumn = { label: string; num?: boolean };

/** The list's table; each cell carries `data-label` (its column) for the stacked phone layout. */
export function ListTable({ testId, columns, children }: { testId: string; columns: ListColumn[]; children: ReactNode }) {
  return (
    <div className={ui.tableWrap}>
      <table className={`${ui.table} ${ui.stack}`} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.num ? ui.num : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a list shows when it has no row. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className={ui.empty}>
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** The row's number, linking to its page. */
export function IdCell({ id, href }: { id: number; href: string }) {
  return (
    <td data-label="Nº">
      <Link href={href} className={ui.rowLink}>
        #{id}
        <LinkPending />
      </Link>
    </td>
  );
}

/** `stacked`: the date over the time, for a table in a narrow column (the cash-out page's history). */
export function DateCell({ at, stacked = false }: { at: Date | string; stacked?: boolean }) {
  const text = formatDateTime(at);
  const [day, time] = text.split(", ");
  return (
    <td data-label="Data" className={ui.nowrap}>
      {stacked && time ? (
        <>
          {day}
          <br />
          <span className={ui.muted}>{time}</span>
        </>
      ) : (
        text
      )}
    </td>
  );
}

/** An amount in bold, with a small note under it (a refund, a fee) when there is one. */
export function AmountCell({ amount, note }: { amount: number; note?: ReactNode }) {
  return (
    <td data-label="Valor" className={ui.num}>
      <strong>{formatBRL(amount)}</strong>
      {note ? <div className={`${ui.small} ${ui.muted}`}>{note}</div> : null}
    </td>
  );
}
