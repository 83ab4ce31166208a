import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { isDemoAccount } from "@/lib/services/accounts/change-password";
import { listTeam, listTeamEvents, TEAM_DEMO_MESSAGE, TEAM_HISTORY_SHOWN, TEAM_LIMIT, teamEventSentence } from "@/lib/services/accounts/team";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Badge } from "@/components/dashboard/Badge";
import { EmptyState, ListTable } from "@/components/dashboard/ListTable";
import { formatDate, formatDateTime } from "@/components/dashboard/format";
import { CancelInvitationButton, InviteForm, RemoveMemberButton } from "./TeamForms";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Equipe" };

export default async function TeamPage() {
  const ctx = await requireSession();
  const [{ members, invitations }, events] = await Promise.all([listTeam(ctx), listTeamEvents(ctx)]);
  const demo = isDemoAccount(ctx.account);
  const used = members.length + invitations.length;
  const full = used >= TEAM_LIMIT;
  const alone = members.length < 2;
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/settings", label: "Configurações" }}
        title="Equipe"
        description="Quem entra no painel desta conta. Todas as pessoas têm o mesmo acesso."
      />
      <div className={ui.split}>
        <div style={{ display: "grid", gap: 16, minWidth: 0 }}>
          <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="pessoas">
            <div className={ui.cardHeader} style={{ padding: "18px 20px 0" }}>
              <h2 id="pessoas">Pessoas com acesso</h2>
              <span className={`${ui.small} ${ui.muted}`} data-testid="team-count">
                {used} de {TEAM_LIMIT} lugares usados
              </span>
            </div>
            <ListTable testId="team-members" columns={[{ label: "Nome" }, { label: "E-mail" }, { label: "Desde" }, { label: "Ações", num: true }]}>
              {members.map((m) => (
                <tr key={m.id} data-user-id={m.id}>
                  <td data-label="Nome">
                    <strong>{m.name}</strong> {m.you && <Badge tone="info">você</Badge>}
                  </td>
                  <td data-label="E-mail" style={{ overflowWrap: "anywhere" }}>
                    {m.email}
                  </td>
                  <td data-label="Desde" className={ui.nowrap}>
                    {formatDate(m.createdAt)}
                  </td>
                  <td data-label="" className={ui.num}>
                    {m.you ? (
                      <span className={`${ui.small} ${ui.muted}`}>{alone ? "Única pessoa da conta" : "Seu acesso"}</span>
                    ) : demo ? null : (
                      <RemoveMemberButton userId={m.id} name={m.name} email={m.email} />
                    )}
                  </td>
                </tr>
              ))}
            </ListTable>
          </section>

          <section className={`${ui.card} ${ui.cardFlush}`} aria-labelledby="convites">
            <div className={ui.cardHeader} style={{ padding: "18px 20px 0" }}>
              <h2 id="convites">Convites pendentes</h2>
            </div>
            {invitations.length ? (
              <ListTable testId="team-invitations" columns={[{ label: "Nome" }, { label: "E-mail" }, { label: "Expira em" }, { label: "Ações", num: true }]}>
                {invitations.map((i) => (
                  <tr key={i.id} data-invitation-id={i.id}>
                    <td data-label="Nome">
                      <strong>{i.name}</strong>
                    </td>
                    <td data-label="E-mail" style={{ overflowWrap: "anywhere" }}>
                      {i.email}
                    </td>
                    <td data-label="Expira em" className={ui.nowrap}>
                      {formatDateTime(i.expiresAt)}
                    </td>
                    <td data-label="" className={ui.num}>
                      <CancelInvitationButton invitationId={i.id} email={i.email} />
                    </td>
                  </tr>
                ))}
              </ListTable>
            ) : (
              <EmptyState title="Nenhum convite pendente">Os convites aceitos, cancelados ou vencidos saem desta lista.</EmptyState>
            )}
          </section>
        </div>

        <section className={ui.card} aria-labelledby="convidar">
          <h2 id="convidar">Convidar pessoa</h2>
          <p className={`${ui.small} ${ui.muted}`} style={{ margin: "-6px 0 14px" }}>
            A pessoa recebe um link para criar a própria senha. O link vale 48 horas e pode ser usado uma só vez.
          </p>
          <InviteForm
            mailConfigured={!!getEnv().smtpUrl}
            disabled={
              demo
                ? TEAM_DEMO_MESSAGE
                : full
                  ? `A equipe chegou ao limite de ${TEAM_LIMIT} pessoas (contando os convites pendentes). Remova alguém ou cancele um convite para convidar outra pessoa.`
                  : undefined
            }
          />
        </section>
      </div>

      {/* After the form, on a phone too: the page is for inviting and removing; the history is the record. */}
      <section className={ui.card} aria-labelledby="historico-equipe" style={{ marginTop: 16 }}>
        <h2 id="historico-equipe">Histórico da equipe</h2>
        <p className={`${ui.small} ${ui.muted}`} style={{ margin: "-6px 0 14px" }}>
          Convites, cancelamentos, entradas e remoções de acesso, do mais recente ao mais antigo (os últimos {TEAM_HISTORY_SHOWN}).
        </p>
        {events.length ? (
          <ol className={ui.timeline} data-testid="team-history">
            {events.map((e) => (
              <li key={e.id} data-event={e.action}>
                <span className={ui.timelineDot} aria-hidden="true" />
                <div className={ui.timelineTitle} style={{ fontWeight: 500, overflowWrap: "anywhere", minWidth: 0 }}>
                  <span style={{ minWidth: 0 }}>{teamEventSentence(e)}</span>
                </div>{" "}
                <div className={ui.timelineMeta}>
                  em <time dateTime={e.at.toISOString()}>{formatDateTime(e.at)}</time>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <EmptyState title="Nada por aqui ainda">Os convites e as remoções de acesso desta conta aparecem aqui.</EmptyState>
        )}
      </section>
    </>
  );
}
