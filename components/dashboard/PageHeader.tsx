import Link from "next/link";
import { LinkPending } from "./NavigationPending";
import s from "./ui.module.css";

export function PageHeader({
  title,
  description,
  back,
  actions,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  back?: { href: string; label: string };
  actions?: React.ReactNode;
}) {
  return (
    <header className={s.pageHeader}>
      <div>
        {back && (
          <div className={s.breadcrumb}>
            <Link href={back.href}>
              ← {back.label}
              <LinkPending />
            </Link>
          </div>
        )}
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className={s.buttonRow}>{actions}</div>}
    </header>
  );
}
