import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDashboardContext } from "@/lib/auth/session";
import { SignupForm } from "./SignupForm";

export const metadata: Metadata = { title: "Criar conta" };

export default async function SignupPage() {
  if (await getDashboardContext()) redirect("/dashboard");
  return <SignupForm />;
}
