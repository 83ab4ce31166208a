import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDashboardContext } from "@/lib/auth/session";
import { SignupForm } from "./SignupForm";
import s from "@/components/dashboard/auth.module.css";

export const metadata: Metadata = { title: "Criar conta" };

export default async function SignupPage() {
  if (await getDashboardContext()) redirect("/dashboard");
  return (
    <>
      <SignupForm />
      <p className={s.switch}>
        Já tem conta? <Link href="/login">Entrar</Link>
      </p>
    </>
  );
}
