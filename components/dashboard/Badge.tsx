import { STATUS_TONE, type Tone } from "./format";
import s from "./ui.module.css";

export function Badge({ tone = "neutral", children }: { tone?: Tone; children: React.ReactNode }) {
  return <span className={`${s.badge} ${s[`tone-${tone}`]}`}>{children}</span>;
}

/** A status with its Portuguese label and colour. */
export function StatusBadge({ status, labels }: { status: string; labels: Record<string, string> }) {
  return <Badge tone={STATUS_TONE[status] ?? "neutral"}>{labels[status] ?? status}</Badge>;
}
