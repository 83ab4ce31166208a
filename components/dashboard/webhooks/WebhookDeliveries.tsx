import type { DashboardWebhookItem } from "@/lib/services/webhooks/dashboard-webhook-items";
import { StatusBadge } from "@/components/dashboard/Badge";
import { DELIVERY_STATE_LABEL, formatDateTimeSeconds } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "@/components/dashboard/transaction/form-action";
import { RedeliverButton, SkipButton } from "./EventActionButton";
import { subjectNoun, type WebhookSubject } from "./subject";
import { attemptErrorText } from "./attempt-text";

/**
 * The notifications of a transaction or of a cash-out, their attempts, and the redeliver / skip
 * buttons (the page passes its own actions, which render that page again).
 */
export function WebhookDeliveries({
  subject,
  postbackUrl,
  webhooks,
  redeliverAction,
  skipAction,
}: {
  subject: WebhookSubject;
  postbackUrl: string | null;
  webhooks: DashboardWebhookItem[];
  redeliverAction: FormAction;
  skipAction: FormAction;
}) {
  const noun = subjectNoun(subject);
  return (
    <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="webhooks">
      <div className={ui.cardHeader} style={{ padding: "20px 20px 0" }}>
        <h2 id="webhooks">Webhooks</h2>
        <span className={`${ui.muted} ${ui.small}`}>
          {postbackUrl ? (
            <>
              Enviados para <span className={ui.mono}>{postbackUrl}</span>
            </>
          ) : (
            `Sem URL de notificação (postbackUrl) ${noun.inThis}`
          )}
        </span>
      </div>
      {webhooks.length === 0 ? (
        <div className={ui.empty}>Nenhum evento ainda.</div>
      ) : (
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="webhook-events">
          {webhooks.map((e) => (
            <li key={e.id} style={{ borderTop: "1px solid #eef2f6", padding: "14px 20px" }} data-event-id={e.id}>
              <div className={ui.buttonRow} style={{ justifyContent: "space-between" }}>
                <div style={{ display: "flex", gap: 10, alignItems: "center", flexWrap: "wrap" }}>
                  <strong className={ui.mono}>{e.type === "refund" ? `refund ${e.status}` : e.status}</strong>
                  <StatusBadge status={e.deliveryState} labels={DELIVERY_STATE_LABEL} />
                  <span className={`${ui.muted} ${ui.small}`}>
                    evento #{e.id} · {formatDateTimeSeconds(e.createdAt)}
                  </span>
                </div>
                {e.url && (
                  <div style={{ display: "inline-flex", gap: 8, flexWrap: "wrap" }}>
                    {/* One that waits behind an earlier pending event would overtake it: the server refuses, so it is not offered. */}
                    {e.waitingForEventId === null && <RedeliverButton eventId={e.id} subject={subject} action={redeliverAction} />}
                    {e.skippable && <SkipButton eventId={e.id} subject={subject} action={skipAction} />}
                  </div>
                )}
              </div>
              {e.waitingForEventId !== null ? (
                <div className={`${ui.small} ${ui.muted}`} style={{ marginTop: 4 }} data-testid="webhook-waiting">
                  Aguardando o evento #{e.waitingForEventId}: os eventos {noun.ofA} são enviados em ordem. Sai assim que aquele for
                  entregue, falhar de vez ou for abandonado; para enviá-lo agora, reenvie o evento #{e.waitingForEventId} ou desista dele.
                </div>
              ) : (
                e.nextAttemptAt && (
                  <div className={`${ui.small} ${ui.muted}`} style={{ marginTop: 4 }} data-testid="webhook-next-attempt">
                    Próxima tentativa: {e.nextAttemptDue ? "agora" : formatDateTimeSeconds(e.nextAttemptAt)}
                  </div>
                )
              )}
              {e.attempts.length > 0 && <AttemptsTable attempts={e.attempts} />}
              <details className={ui.details} style={{ marginTop: 8 }}>
                <summary>Ver corpo enviado</summary>
                <pre className={ui.pre}>{JSON.stringify(e.body, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AttemptsTable({ attempts }: { attempts: DashboardWebhookItem["attempts"] }) {
  return (
    <div className={ui.tableWrap} style={{ marginTop: 10 }}>
      <table className={`${ui.table} ${ui.stack}`}>
        <thead>
          <tr>
            <th scope="col">Tentativa</th>
            <th scope="col">Quando</th>
            <th scope="col">Resultado</th>
            <th scope="col" className={ui.num}>
              Duração
            </th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={`${a.number}-${a.createdAt}`}>
              <td data-label="Tentativa">{a.kind === "skip" ? "Manual" : `${a.number}${a.manual ? " (manual)" : ""}`}</td>
              <td data-label="Quando" className={ui.nowrap}>
                {formatDateTimeSeconds(a.createdAt)}
              </td>
              <td data-label="Resultado">
                {a.kind === "skip" ? (
                  <span>Abandonado: não será mais enviado</span>
                ) : (
                  <span className={a.success ? ui.positive : ui.negative}>{a.httpStatus ? `HTTP ${a.httpStatus}` : "sem resposta"}</span>
                )}
                {a.error && <div className={`${ui.small} ${ui.muted}`}>{attemptErrorText(a.error)}</div>}
              </td>
              <td data-label="Duração" className={ui.num}>
                {a.durationMs} ms
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
