import type { Metadata } from "next";
import Link from "next/link";
import { requireSession } from "@/lib/auth/session";
import { listApiKeys } from "@/lib/services/accounts/dashboard-api-keys";
import { getEnv } from "@/lib/env";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { KeyBox } from "@/components/ui/KeyBox";
import { Badge } from "@/components/dashboard/Badge";
import { formatDateTime } from "@/components/dashboard/format";
import { SecretKeyRotation } from "./SecretKeyRotation";
import { WebhookSecret } from "./WebhookSecret";
import { WebhookUrlForm } from "./WebhookUrlForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Desenvolvedores" };

export default async function DevelopersPage() {
  const ctx = await requireSession();
  const keys = await listApiKeys(ctx);
  const active = keys.find((k) => k.revokedAt === null) ?? null;
  const baseUrl = getEnv().baseUrl;
  const curl = `curl ${baseUrl}/api/v1/transactions \\
  -u "${ctx.account.publicKey}:SUA_CHAVE_SECRETA" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: pedido-1234" \\
  -d '{"paymentMethod":"pix","amount":1000,
       "customer":{"name":"Maria Silva","email":"maria@example.com",
                   "document":{"type":"cpf","number":"11144477735"}},
       "items":[{"title":"Camiseta","unitPrice":1000,"quantity":1,"tangible":true}]}'`;

  return (
    <>
      <PageHeader
        title="Desenvolvedores"
        description="Chaves de API, assinatura de webhooks e documentação da integração."
        actions={
          <>
            <Link href="/docs" className={`${ui.button} ${ui.secondary}`}>
              Referência da API
            </Link>
            <a href="/api/v1/openapi.json" className={`${ui.button} ${ui.secondary}`}>
              OpenAPI (JSON)
            </a>
          </>
        }
      />
      <div className={`${ui.grid} ${ui.grid2}`}>
        <section className={ui.card} aria-labelledby="chaves">
          <h2 id="chaves">Chaves de API</h2>
          <div className={ui.form}>
            <div className={ui.field}>
              <span className={ui.label}>Chave pública</span>
              <KeyBox value={ctx.account.publicKey} label="Chave pública" testId="public-key" />
              <span className={ui.hint}>Pode ir no navegador: serve só para tokenizar cartões.</span>
            </div>
            <div className={ui.field}>
              <span className={ui.label}>Chave secreta</span>
              <div className={ui.keyBox}>
                <code data-testid="secret-key-hint">{active ? active.hint : "nenhuma chave ativa"}</code>
                {active && <Badge tone="success">Ativa</Badge>}
              </div>
              <span className={ui.hint}>
                Guardada só como hash: não dá para exibi-la de novo.{active ? ` Criada em ${formatDateTime(active.createdAt)}.` : ""}
              </span>
            </div>
            <SecretKeyRotation currentHint={active?.hint ?? null} />
          </div>
        </section>

        <section className={ui.card} aria-labelledby="webhooks">
          <h2 id="webhooks">Webhooks</h2>
          <WebhookUrlForm initial={ctx.account.webhookUrl} />
          <h3 style={{ margin: "12px 0 0", paddingTop: 16, borderTop: "1px solid #e2e8f0", fontSize: "1rem" }}>Assinatura</h3>
          <p className={`${ui.small} ${ui.muted}`} style={{ margin: 0 }}>
            Cada notificação leva os cabeçalhos <code>webhook-id</code>, <code>webhook-timestamp</code> e{" "}
            <code>webhook-signature</code> (HMAC-SHA256 de <code>id.timestamp.corpo</code>, padrão Standard Webhooks).
          </p>
          <WebhookSecret />
        </section>
      </div>

      <section className={`${ui.card} ${ui.section}`} aria-labelledby="integracao">
        <h2 id="integracao">Primeira cobrança</h2>
        <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
          Autenticação HTTP Basic com <code>chave_publica:chave_secreta</code>. Valores sempre em centavos.
        </p>
        <pre className={ui.pre}>{curl}</pre>
      </section>

      {keys.some((k) => k.revokedAt) && (
        <section className={`${ui.card} ${ui.cardFlush} ${ui.section}`} aria-labelledby="historico-chaves">
          <h2 id="historico-chaves" style={{ padding: "20px 20px 0" }}>
            Histórico de chaves secretas
          </h2>
          <div className={ui.tableWrap}>
            <table className={`${ui.table} ${ui.stack}`}>
              <thead>
                <tr>
                  <th scope="col">Chave</th>
                  <th scope="col">Criada</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id}>
                    <td data-label="Chave" className={ui.mono}>
                      {k.hint}
                    </td>
                    <td data-label="Criada">{formatDateTime(k.createdAt)}</td>
                    <td data-label="Status">
                      {k.revokedAt ? <Badge>Revogada em {formatDateTime(k.revokedAt)}</Badge> : <Badge tone="success">Ativa</Badge>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
}
