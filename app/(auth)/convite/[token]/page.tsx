import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { clientIp } from "@/lib/auth/throttle";
import { inviteTokenThrottle } from "@/lib/auth/invite-throttle";
import { ensureDatabase } from "@/lib/db/client";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/services/accounts/change-password";
import { findInvitation } from "@/lib/services/accounts/team";
import { formatDateTime } from "@/components/dashboard/format";
import { AcceptForm } from "./AcceptForm";
import s from "@/components/dashboard/auth.module.css";
import ui from "@/components/dashboard/ui.module.css";

// The token is in the address: no Referer carries it off the site.
export const metadata: Metadata = { title: "Convite para a equipe", referrer: "same-origin", robots: { index: false, follow: false } };

/**
 * A team invitation's page, public: the colleague creates a password here. An unknown, expired, used
 * or cancelled token gets one page that does not say which; each look-up is counted per address.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  await ensureDatabase();
  const found = await findInvitation(token, inviteTokenThrottle(clientIp(await headers())));
  if (!found.ok) {
    return (
      <>
        <h1>{found.reason === "throttled" ? "Muitas tentativas" : "Convite inválido"}</h1>
        <p>{found.reason === "throttled" ? "Não foi possível abrir o convite agora." : "Não é possível entrar na equipe com este link."}</p>
        <div className={`${ui.alert} ${found.reason === "throttled" ? ui.alertWarning : ui.alertInfo}`} role="alert" data-testid="invite-invalid">
          {found.message}
        </div>
        <p className={s.switch}>
          Já tem acesso? <Link href="/login">Entrar</Link>
        </p>
      </>
    );
  }
  const inv = found.invitation;
  return (
    <>
      <h1>Entrar na equipe</h1>
      <p>
        Você foi convidado para acessar o painel de <strong>{inv.companyName}</strong> no Arara. Crie a sua senha para entrar. Convite válido até{" "}
        {formatDateTime(inv.expiresAt)}.
      </p>
      <AcceptForm token={token} name={inv.name} email={inv.email} minLength={PASSWORD_MIN_LENGTH} maxLength={PASSWORD_MAX_LENGTH} />
      <p className={s.switch}>
        Já tem acesso? <Link href="/login">Entrar</Link>
      </p>
    </>
  );
}
