import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { clientSecretStatusLabel, formatDate } from "@/components/dashboard/format";
import { getPspSettings } from "@/lib/services/psp/api-pix-settings";
import { PspSettingsForm, TestConnection } from "./PspSettingsForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Recebimento PIX" };

export default async function PixSettingsPage() {
  const ctx = await requireSession();
  const view = await getPspSettings(ctx);
  return (
    <>
      <PageHeader title="Recebimento PIX" description="Receba PIX pelo sandbox ou pela API Pix do seu próprio PSP (banco ou instituição de pagamento)." />
      <p className={ui.small} style={{ margin: "0 0 12px" }}>
        <Link href="/dashboard/settings">← Configurações</Link>
      </p>
      <div className={ui.split}>
        <section className={ui.card} aria-labelledby="psp-config">
          <h2 id="psp-config">Processador de PIX</h2>
          <PspSettingsForm view={{ ...view, updatedAt: null, webhookRegisteredAt: null }} />
        </section>
        <section className={ui.card} aria-labelledby="psp-status">
          <h2 id="psp-status">Situação</h2>
          <dl className={ui.dl} style={{ marginBottom: 16 }}>
            <dt>Processador</dt>
            <dd data-testid="psp-processor">{view.processor === "api-pix" ? "API Pix (seu PSP)" : "Sandbox"}</dd>
            <dt>Saques (cash-out)</dt>
            <dd data-testid="psp-payouts">
              {view.processor !== "api-pix" ? "Sandbox" : view.payoutEfi ? `Efí (Pix Envio), da chave ${view.payoutPayerKey}` : "Não configurados: recusados pela API"}
            </dd>
            <dt>Client secret</dt>
            <dd data-testid="psp-client-secret">{clientSecretStatusLabel(view)}</dd>
            <dt>Certificado</dt>
            <dd>{view.certificate === "pkcs12" ? "PKCS#12 guardado (criptografado)" : view.certificate === "pem" ? "PEM guardado (chave criptografada)" : "Não enviado"}</dd>
            <dt>Webhook</dt>
            <dd style={{ fontFamily: "monospace", fontSize: "0.8rem" }}>{view.webhookUrl ?? "—"}</dd>
            <dt>Registrado em</dt>
            <dd>{view.webhookRegisteredAt ? formatDate(view.webhookRegisteredAt) : "—"}</dd>
            <dt>Atualizado em</dt>
            <dd>{view.updatedAt ? formatDate(view.updatedAt) : "—"}</dd>
          </dl>
          <TestConnection disabled={view.processor !== "api-pix" && !view.hasClientSecret} />
          <p className={`${ui.small} ${ui.muted}`} style={{ margin: "12px 0 0" }}>
            Trocar o processador vale só para cobranças novas; as já emitidas continuam sendo acompanhadas por onde foram criadas.
          </p>
        </section>
      </div>
    </>
  );
}
