import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDashboardContext } from "@/lib/auth/session";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { getEnv } from "@/lib/env";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { LoginForm } from "./LoginForm";
import s from "@/components/dashboard/auth.module.css";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Entrar" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeCallbackUrl(typeof sp.callbackUrl === "string" ? sp.callbackUrl : undefined);
  if (await getDashboardContext()) redirect(callbackUrl);
  const { demoMerchant: demo, signupOpen } = getEnv();
  return (
    <>
      <h1>Entrar no painel</h1>
      <p>Acompanhe vendas, saldo e saques da sua conta.</p>
      {typeof sp.error === "string" && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert" style={{ marginBottom: 16 }}>
          {sp.error === "CredentialsSignin" ? "E-mail ou senha incorretos." : "Não foi possível entrar. Tente novamente."}
        </div>
      )}
      {sp.signedOut && (
        <div className={`${ui.alert} ${ui.alertInfo}`} role="status" style={{ marginBottom: 16 }}>
          Você saiu da sua conta.
        </div>
      )}
      <LoginForm callbackUrl={callbackUrl} />
      {/* SIGNUP=closed: accounts are created by the operator, so no link to a closed form. */}
      {signupOpen ? (
        <p className={s.switch}>
          Ainda não tem conta? <Link href="/signup">Criar conta</Link>
        </p>
      ) : (
        <p className={s.switch}>Ainda não tem conta? Peça o seu acesso a quem administra este Arara.</p>
      )}
      {demo && (
        <div className={`${ui.alert} ${ui.alertInfo} ${s.demo}`}>
          <strong>Conta de demonstração</strong>
          E-mail <code>{DEMO.email}</code> · senha <code>{DEMO.password}</code>
        </div>
      )}
    </>
  );
}
