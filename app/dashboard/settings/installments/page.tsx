import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { accountInstallmentPlan } from "@/lib/services/accounts/installment-plan";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { InstallmentsForm } from "./InstallmentsForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Parcelamento" };

export default async function InstallmentsPage() {
  const ctx = await requireSession();
  const plan = accountInstallmentPlan(ctx.account);
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/settings", label: "Configurações" }}
        title="Parcelamento"
        description="Em quantas vezes o pagador pode parcelar no cartão, quantas parcelas são sem juros e os juros cobrados dele nas demais."
      />
      <section className={ui.card} style={{ maxWidth: 720 }} aria-label="Parcelamento no cartão">
        <InstallmentsForm initial={plan} />
      </section>
    </>
  );
}
