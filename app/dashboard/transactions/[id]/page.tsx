import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireSession } from "@/lib/auth/session";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { getTransactionTimeline } from "@/lib/services/transactions/transaction-timeline";
import { listTransactionWebhooks } from "@/lib/services/webhooks/list-transaction-webhooks";
import { secureUrlOf } from "@/lib/services/transactions/transaction-view";
import { ServiceError } from "@/lib/services/errors";
import { isPastExpiry } from "@/lib/domain/expiry";
import { paidAmountOf } from "@/lib/domain/journals";
import { canSandboxMove, SANDBOX_TEST_MOVES, type PaymentMethod, type TransactionStatus } from "@/lib/domain/status";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { StatusBadge } from "@/components/dashboard/Badge";
import { KeyBox } from "@/components/dashboard/CopyButton";
import {
  CAUSE_LABEL,
  DELIVERY_STATE_LABEL,
  formatBRL,
  formatDateTime,
  formatDateTimeSeconds,
  formatDocument,
  formatPhone,
  METHOD_LABEL,
  STATUS_LABEL,
} from "@/components/dashboard/format";
import { displayStatus, refusalLabel, TX_STATUS_LABEL } from "@/components/dashboard/format";
import { FeeStat } from "@/components/dashboard/FeeStat";
import { newFormKey } from "@/lib/auth/idempotent-action";
import { RefundForm } from "./RefundForm";
import { SandboxMoves } from "./SandboxMoves";
import { RedeliverButton } from "./RedeliverButton";
import { SkipButton } from "./SkipButton";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Transação" };

function sandboxLabel(from: string, to: string): string {
  if (to === "paid") return from === "in_protest" ? "Simular contestação ganha" : "Simular pagamento";
  if (to === "chargedback") return from === "in_protest" ? "Simular contestação perdida" : "Simular chargeback";
  const labels: Record<string, string> = {
    processing: "Simular processamento",
    refused: "Simular recusa",
    in_protest: "Contestar chargeback",
  };
  return labels[to] ?? to;
}

function actorLabel(actor: string): string {
  if (actor === "api") return "API";
  if (actor.startsWith("dashboard:")) return "Painel";
  if (actor === "checkout") return "Checkout";
  if (actor.startsWith("psp:")) return "PSP";
  return "Sistema";
}

export default async function TransactionPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireSession();
  const { id } = await params;
  let t;
  try {
    t = await getTransaction(ctx, id);
  } catch (err) {
    if (err instanceof ServiceError && err.code === "not_found") notFound();
    throw err;
  }
  const [timeline, webhooks] = await Promise.all([getTransactionTimeline(ctx, t.id), listTransactionWebhooks(ctx, t.id)]);

  const paid = t.paidAt ? paidAmountOf(t) : 0;
  const refundable = t.status === "paid" ? paid - t.refundedAmount : 0;
  const method = t.paymentMethod as PaymentMethod;
  const status = t.status as TransactionStatus;
  // Refunds have their own form with a confirmation step; the sandbox offers the other moves.
  const expired = t.status === "pending" && isPastExpiry(t.expiresAt, ctx.now);
  // An expired PIX or boleto can no longer be paid (the sandbox refuses): not offered.
  const moves = t.livemode
    ? []
    : SANDBOX_TEST_MOVES.filter((to) => to !== "refunded" && canSandboxMove(method, status, to))
        .filter((to) => !(expired && (to === "paid" || to === "processing")))
        .map((to) => ({ to, label: sandboxLabel(status, to) }));

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/transactions", label: "Transações" }}
        title={
          <span style={{ display: "inline-flex", alignItems: "center", gap: 12, flexWrap: "wrap" }}>
            Transação #{t.id} <StatusBadge status={displayStatus(t, ctx.now)} labels={TX_STATUS_LABEL} />
          </span>
        }
        description={`${METHOD_LABEL[t.paymentMethod] ?? t.paymentMethod} · criada em ${formatDateTime(t.createdAt)}`}
        actions={
          <a className={`${ui.button} ${ui.secondary}`} href={secureUrlOf(t.secureId)} target="_blank" rel="noreferrer">
            Abrir checkout ↗
          </a>
        }
      />

      {t.duplicateOfId !== null && (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="duplicate-payment" style={{ marginBottom: 16 }}>
          <strong>Pagamento em duplicidade, devolvido automaticamente.</strong> Este pagamento chegou quando o link de pagamento já
          estava pago pela <Link href={`/dashboard/transactions/${t.duplicateOfId}`}>transação #{t.duplicateOfId}</Link>. Ele foi registrado e
          devolvido integralmente ao pagador na mesma hora, sem tarifa: seu saldo não muda.
        </div>
      )}

      <section className={`${ui.grid} ${ui.grid4}`} aria-label="Valores">
        <div className={`${ui.card} ${ui.stat}`}>
          <span className={ui.statLabel}>Valor</span>
          <span className={ui.statValue} data-testid="tx-amount">
            {formatBRL(t.amount)}
          </span>
          {t.installments > 1 && <span className={ui.statHint}>em {t.installments}x</span>}
        </div>
        <div className={`${ui.card} ${ui.stat}`}>
          <span className={ui.statLabel}>Pago</span>
          <span className={ui.statValue}>{formatBRL(paid)}</span>
          <span className={ui.statHint}>{t.paidAt ? `em ${formatDateTime(t.paidAt)}` : "ainda não pago"}</span>
        </div>
        <div className={`${ui.card} ${ui.stat}`}>
          <span className={ui.statLabel}>Reembolsado</span>
          <span className={ui.statValue} data-testid="tx-refunded">
            {formatBRL(t.refundedAmount)}
          </span>
        </div>
        <FeeStat status={t.status} fee={t.feeEstimated} amount={t.amount} feeFixed={t.feeFixed} />
      </section>

      <div className={`${ui.split} ${ui.section}`}>
        <div className={ui.grid}>
          <section className={ui.card} aria-labelledby="cliente">
            <h2 id="cliente">Cliente</h2>
            <dl className={ui.dl}>
              <dt>Nome</dt>
              <dd>{t.customer.name}</dd>
              <dt>E-mail</dt>
              <dd>{t.customer.email}</dd>
              <dt>{t.customer.document.type === "cnpj" ? "CNPJ" : "CPF"}</dt>
              <dd>{formatDocument(t.customer.document.number)}</dd>
              <dt>Telefone</dt>
              <dd>{formatPhone(t.customer.phone)}</dd>
              {t.externalRef && (
                <>
                  <dt>Sua referência</dt>
                  <dd className={ui.mono}>{t.externalRef}</dd>
                </>
              )}
              {t.ip && (
                <>
                  <dt>IP</dt>
                  <dd className={ui.mono}>{t.ip}</dd>
                </>
              )}
            </dl>
          </section>

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

          <section className={ui.card} aria-labelledby="pagamento">
            <h2 id="pagamento">Pagamento</h2>
            <dl className={ui.dl}>
              <dt>Meio</dt>
              <dd>{METHOD_LABEL[t.paymentMethod]}</dd>
              <dt>Processador</dt>
              <dd>{t.acquirerType}</dd>
              {t.paymentMethod === "credit_card" && t.cardLastDigits && (
                <>
                  <dt>Cartão</dt>
                  <dd>
                    {(t.cardBrand ?? "").toUpperCase()} {t.cardFirstDigits}••••••{t.cardLastDigits} · {t.cardHolderName}
                  </dd>
                </>
              )}
              {t.refusedReason && (
                <>
                  <dt>Motivo da recusa</dt>
                  <dd data-testid="refusal-reason">{refusalLabel(t.refusedReason)}</dd>
                </>
              )}
              {t.expiresAt && t.status === "pending" && (
                <>
                  <dt>{t.paymentMethod === "boleto" ? "Vencimento" : "Expira em"}</dt>
                  <dd>
                    {formatDateTime(t.expiresAt)} {expired && <span className={ui.fieldError}>(expirado)</span>}
                  </dd>
                </>
              )}
              {t.pixEnd2end && (
                <>
                  <dt>End-to-end</dt>
                  <dd className={ui.mono}>{t.pixEnd2end}</dd>
                </>
              )}
              {t.boletoDigitableLine && (
                <>
                  <dt>Linha digitável</dt>
                  <dd className={ui.mono}>{t.boletoDigitableLine}</dd>
                </>
              )}
            </dl>
            {t.pixQrcode && t.status === "pending" && (
              <div className={ui.field} style={{ marginTop: 14 }}>
                <span className={ui.label}>PIX copia e cola</span>
                <KeyBox value={t.pixQrcode} label="Código PIX copia e cola" />
              </div>
            )}
          </section>

          <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="webhooks">
            <div className={ui.cardHeader} style={{ padding: "20px 20px 0" }}>
              <h2 id="webhooks">Webhooks</h2>
              <span className={`${ui.muted} ${ui.small}`}>
                {t.postbackUrl ? (
                  <>
                    Enviados para <span className={ui.mono}>{t.postbackUrl}</span>
                  </>
                ) : (
                  "Sem URL de notificação (postbackUrl) nesta transação"
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
                        <strong className={ui.mono}>{e.status}</strong>
                        <StatusBadge status={e.deliveryState} labels={DELIVERY_STATE_LABEL} />
                        <span className={`${ui.muted} ${ui.small}`}>
                          evento #{e.id} · {formatDateTimeSeconds(e.createdAt)}
                        </span>
                      </div>
                      {e.url && (
                        <div style={{ display: "inline-flex", gap: 8, flexWrap: "wrap" }}>
                          <RedeliverButton eventId={e.id} transactionId={t.id} />
                          {/* Only the event that holds the others (or a failed one) is offered: skipping one that merely waits frees nothing. */}
                          {((e.deliveryState === "pending" && e.waitingForEventId === null) || e.deliveryState === "failed") && (
                            <SkipButton eventId={e.id} transactionId={t.id} />
                          )}
                        </div>
                      )}
                    </div>
                    {e.waitingForEventId !== null ? (
                      <div className={`${ui.small} ${ui.muted}`} style={{ marginTop: 4 }} data-testid="webhook-waiting">
                        Aguardando o evento #{e.waitingForEventId}: os eventos de uma transação são enviados em ordem. Sai assim que
                        aquele for entregue, falhar de vez ou for abandonado.
                      </div>
                    ) : (
                      e.nextAttemptAt && (
                        <div className={`${ui.small} ${ui.muted}`} style={{ marginTop: 4 }} data-testid="webhook-next-attempt">
                          Próxima tentativa:{" "}
                          {new Date(e.nextAttemptAt).getTime() <= ctx.now.getTime() ? "agora" : formatDateTimeSeconds(e.nextAttemptAt)}
                        </div>
                      )
                    )}
                    {e.attempts.length > 0 && (
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
                            {e.attempts.map((a) => (
                              <tr key={`${a.number}-${a.createdAt}`}>
                                <td data-label="Tentativa">
                                  {a.kind === "skip" ? "Manual" : `${a.number}${a.manual ? " (manual)" : ""}`}
                                </td>
                                <td data-label="Quando" className={ui.nowrap}>
                                  {formatDateTimeSeconds(a.createdAt)}
                                </td>
                                <td data-label="Resultado">
                                  {a.kind === "skip" ? (
                                    <span>Abandonado: não será mais enviado</span>
                                  ) : (
                                    <span className={a.success ? ui.positive : ui.negative}>
                                      {a.httpStatus ? `HTTP ${a.httpStatus}` : "sem resposta"}
                                    </span>
                                  )}
                                  {a.error && <div className={`${ui.small} ${ui.muted}`}>{a.error}</div>}
                                </td>
                                <td data-label="Duração" className={ui.num}>
                                  {a.durationMs} ms
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                    )}
                    <details className={ui.details} style={{ marginTop: 8 }}>
                      <summary>Ver corpo enviado</summary>
                      <pre className={ui.pre}>{JSON.stringify(e.body, null, 2)}</pre>
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <div className={ui.grid}>
          {refundable > 0 && (
            <section className={ui.card} aria-labelledby="reembolso">
              <h2 id="reembolso">Reembolso</h2>
              <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
                Reembolsável: <strong style={{ color: "#0f172a" }}>{formatBRL(refundable)}</strong>
              </p>
              <RefundForm transactionId={t.id} refundable={refundable} formKey={newFormKey()} />
            </section>
          )}

          {moves.length > 0 && (
            <section className={ui.card} aria-labelledby="sandbox">
              <h2 id="sandbox">Simular no sandbox</h2>
              <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
                Move esta transação de teste como o banco ou a adquirente fariam, com os webhooks correspondentes.
              </p>
              <SandboxMoves transactionId={t.id} moves={moves} />
            </section>
          )}

          <section className={ui.card} aria-labelledby="historico">
            <h2 id="historico">Histórico</h2>
            <ol className={ui.timeline} data-testid="timeline">
              {timeline.map((e) => (
                <li key={e.id}>
                  <span className={ui.timelineDot} aria-hidden="true" />
                  <div className={ui.timelineTitle}>
                    {CAUSE_LABEL[e.cause] ?? e.cause}
                    <StatusBadge status={e.toStatus} labels={STATUS_LABEL} />
                  </div>
                  <div className={ui.timelineMeta}>
                    {formatDateTimeSeconds(e.createdAt)} · {actorLabel(e.actor)}
                    {e.amount !== null && (e.cause === "partial_refund" || e.cause === "refund" || e.cause === "duplicate_payment_refund" || e.cause.startsWith("psp_"))
                      ? ` · ${formatBRL(e.amount)}`
                      : ""}
                  </div>
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </>
  );
}
