import s from "./checkout.module.css";

export function StatusPill({ label, pending = false, tone }: { label: string; pending?: boolean; tone?: "bad" }) {
  return (
    <span className={`${s.status} ${pending ? s.statusPending : ""} ${tone === "bad" ? s.statusBad : ""}`} data-testid="status-pill">
      <span className={s.statusDot} aria-hidden="true" />
      {label}
    </span>
  );
}
