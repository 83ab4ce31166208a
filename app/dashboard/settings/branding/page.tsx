import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getBranding, payerBrandOf } from "@/lib/services/accounts/branding";
import { formatPhone } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { BrandingForm } from "./BrandingForm";
import ui from "@/components/dashboard/ui.module.css";

export const metadata: Metadata = { title: "Marca do checkout" };

export default async function BrandingPage() {
  const ctx = await requireSession();
  const b = await getBranding(ctx.account.id);
  const brand = payerBrandOf(b);
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/settings", label: "Configurações" }}
        title="Marca do checkout"
        description="Logo, cor, nome e contato de suporte que o pagador vê no checkout."
      />
      <section className={ui.card} style={{ maxWidth: 720 }} aria-label="Marca">
        <BrandingForm
          initial={{
            displayName: b?.displayName ?? "",
            brandColor: b?.brandColor ?? "",
            supportEmail: b?.supportEmail ?? "",
            supportPhone: b?.supportPhone ? formatPhone(b.supportPhone) : "",
            logoUrl: brand.logoUrl,
          }}
        />
      </section>
    </>
  );
}
