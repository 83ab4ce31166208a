import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { DEMO_PASSWORD_MESSAGE, isDemoAccount, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/services/accounts/change-password";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { PasswordForm } from "./PasswordForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Senha de acesso" };

export default async function PasswordPage() {
  const ctx = await requireSession();
  const demo = isDemoAccount(ctx.account);
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/settings", label: "Configurações" }}
        title="Senha de acesso"
        description={`A senha com que ${ctx.user.email} entra no painel.`}
      />
      <section className={ui.card} style={{ maxWidth: 560 }} aria-label="Alterar senha">
        {demo ? (
          <div className={`${ui.alert} ${ui.alertInfo}`} role="note" data-testid="demo-password">
            {DEMO_PASSWORD_MESSAGE}
          </div>
        ) : (
          <>
            <PasswordForm email={ctx.user.email} minLength={PASSWORD_MIN_LENGTH} maxLength={PASSWORD_MAX_LENGTH} />
            <p className={`${ui.small} ${ui.muted}`} style={{ margin: "16px 0 0" }}>
              Trocar a senha encerra as sessões deste login abertas em outros aparelhos e navegadores; esta continua aberta.
            </p>
          </>
        )}
      </section>
    </>
  );
}
