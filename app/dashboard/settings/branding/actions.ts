"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { setLogo, updateBranding } from "@/lib/services/accounts/branding";
import { checkBrandColor } from "@/lib/domain/brand";

const FIELD_TEXT: Record<string, string> = {
  displayName: "Use no máximo 80 caracteres.",
  supportEmail: "Informe um e-mail válido.",
  supportPhone: "Informe um telefone com DDD, como (11) 98765-4321.",
  logo: "Envie uma imagem PNG, JPEG ou WebP de até 256 KB.",
};

function colorText(raw: string): string {
  const c = checkBrandColor(raw);
  if (!c.ok && c.reason === "contrast") {
    return `Contraste de ${c.ratio.toFixed(1).replace(".", ",")}:1 com texto branco, abaixo do mínimo de 4,5:1. Escolha um tom mais escuro.`;
  }
  return "Use uma cor em hexadecimal, como #0f766e.";
}

export async function updateBrandingAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const text = (n: string) => String(formData.get(n) ?? "");
    try {
      await updateBranding(ctx, {
        displayName: text("displayName"),
        brandColor: text("brandColor"),
        supportEmail: text("supportEmail"),
        supportPhone: text("supportPhone"),
      });
      const file = formData.get("logo");
      if (formData.get("removeLogo") === "on") await setLogo(ctx, null);
      else if (file instanceof File && file.size > 0) await setLogo(ctx, Buffer.from(await file.arrayBuffer()));
    } catch (err) {
      if (err instanceof ServiceError && err.code === "validation_error" && err.errors?.length) {
        const fieldErrors = Object.fromEntries(
          err.errors.map((e) => [e.field, e.field === "brandColor" ? colorText(text("brandColor")) : (FIELD_TEXT[e.field] ?? e.message)]),
        );
        return { status: "error", message: "Revise os campos destacados.", fieldErrors };
      }
      throw err;
    }
    revalidatePath("/dashboard/settings/branding");
    return { status: "ok", message: "Marca salva. O checkout já mostra as mudanças." };
  });
}
