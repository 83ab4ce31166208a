import Link from "next/link";
import { LinkPending } from "./NavigationPending";
import { formatInt } from "./format";
import s from "./ui.module.css";

/** Previous/next links that keep the current filters. */
export function Pagination({
  basePath,
  params,
  page,
  totalPages,
  total,
  noun,
}: {
  basePath: string;
  params: Record<string, string | undefined>;
  page: number;
  totalPages: number;
  total: number;
  noun: [string, string];
}) {
  const href = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
    if (p > 1) q.set("page", String(p));
    else q.delete("page");
    const qs = q.toString();
    return qs ? `${basePath}?${qs}` : basePath;
  };
  return (
    <nav className={s.pagination} aria-label="Paginação">
      <span>
        {formatInt(total)} {total === 1 ? noun[0] : noun[1]} · página {page} de {totalPages}
      </span>
      <span className={s.buttonRow}>
        {page > 1 ? (
          <Link className={`${s.button} ${s.secondary} ${s.buttonSmall}`} href={href(page - 1)} rel="prev">
            ← Anterior
            <LinkPending />
          </Link>
        ) : null}
        {page < totalPages ? (
          <Link className={`${s.button} ${s.secondary} ${s.buttonSmall}`} href={href(page + 1)} rel="next">
            Próxima →
            <LinkPending />
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
