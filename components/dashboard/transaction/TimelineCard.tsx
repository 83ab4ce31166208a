import type { TransactionDetail } from "@/lib/services/transactions/transaction-detail";
import { StatusBadge } from "@/components/dashboard/Badge";
import { formatBRL, formatDateTimeSeconds, STATUS_LABEL, timelineEntryLabel } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

function actorLabel(actor: string): string {
  if (actor === "api") return "API";
  if (actor.startsWith("dashboard:")) return "Painel";
  if (actor === "checkout") return "Checkout";
  if (actor.startsWith("psp:")) return "PSP";
  return "Sistema";
}

/** The status history of a transaction, oldest first. */
export function TimelineCard({ timeline }: { timeline: TransactionDetail["timeline"] }) {
  return (
    <section className={ui.card} aria-labelledby="historico">
      <h2 id="historico">Histórico</h2>
      <ol className={ui.timeline} data-testid="timeline">
        {timeline.map((e) => (
          <li key={e.id}>
            <span className={ui.timelineDot} aria-hidden="true" />
            <div className={ui.timelineTitle}>
              {timelineEntryLabel(e)}
              <StatusBadge status={e.toStatus} labels={STATUS_LABEL} />
            </div>
            <div className={ui.timelineMeta}>
              {formatDateTimeSeconds(e.createdAt)} · {actorLabel(e.actor)}
              {e.showAmount && e.amount !== null ? ` · ${formatBRL(e.amount)}` : ""}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
