import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDashboardContext } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { SignupForm } from "./SignupForm";
import { SIGNUP_CLOSED_MESSAGE } from "./closed";
import s from "@/components/dashboard/auth.module.css";

export const metadata: Metadata = { title: "Criar conta" };

export default async function SignupPage() {
  if (await getDashboardContext()) redirect("/dashboard");
  // SIGNUP=closed (the default in production): no form; the action refuses too (actions.ts).
  if (!getEnv().signupOpen) {
    return (
      <>
        <h1>Cadastro fechado</h1>
        <p data-testid="signup-closed">{SIGNUP_CLOSED_MESSAGE}</p>
        <p className={s.switch}>
          Já tem conta? <Link href="/login">Entrar</Link>
        </p>
      </>
    );
  }
  return <SignupForm />;
}
