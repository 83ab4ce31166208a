import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Shell } from "@/components/dashboard/Shell";
import { getDashboardContext } from "@/lib/auth/session";

export const metadata: Metadata = { title: { default: "Painel", template: "%s · Painel Arara" }, robots: { index: false } };

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // Each page and action checks the session itself too; this only draws the frame.
  const ctx = await getDashboardContext();
  if (!ctx) redirect("/login");
  return (
    <Shell accountName={ctx.account.name} userEmail={ctx.user.email}>
      {children}
    </Shell>
  );
}
