import type { ReactNode } from "react";
import s from "./ui.module.css";

type Tone = "danger" | "info" | "warning" | "ok";

const ICONS: Record<Tone, ReactNode> = {
  danger: <path d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />,
  warning: <path d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />,
  info: <path d="M12 16v-4m0-4h.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z" />,
  ok: <path d="m8.5 12.5 2.5 2.5 4.5-5M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z" />,
};

/** A message box. `role="alert"` for errors that appear after an action; plain otherwise. */
export function Alert({
  tone,
  title,
  children,
  role,
  id,
}: {
  tone: Tone;
  title?: ReactNode;
  children?: ReactNode;
  role?: "alert" | "status";
  id?: string;
}) {
  return (
    <div className={`${s.alert} ${s[tone]}`} role={role} id={id}>
      <svg className={s.alertIcon} width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        {ICONS[tone]}
      </svg>
      <div>
        {title ? <p className={s.alertTitle}>{title}</p> : null}
        {typeof children === "string" ? <p>{children}</p> : children}
      </div>
    </div>
  );
}
