"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { updateCompanySettings } from "@/lib/services/update-company-settings";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";

const FIELD_TEXT: Record<string, string> = {
  name: "Informe o nome da empresa (2 a 120 caracteres).",
  email: "Informe um e-mail válido.",
  city: "Informe a cidade (2 a 60 caracteres, com letras).",
  pixKey: "Informe a chave PIX.",
  pixKeyType: "Tipo de chave inválido.",
};

export async function updateSettingsAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const text = (n: string) => String(formData.get(n) ?? "");
    try {
      await updateCompanySettings(ctx, {
        name: text("name"),
        email: text("email"),
        city: text("city"),
        pixKey: text("pixKey"),
        pixKeyType: text("pixKeyType"),
      });
    } catch (err) {
      if (err instanceof ServiceError && err.code === "validation_error" && err.errors?.length) {
        // The key's refusal says why (a mistyped CPF, a landline, ...), from the same parser the service used.
        const keyText = pixKeyErrorText(checkPixKeyInput(text("pixKey"), text("pixKeyType")));
        const fieldErrors = Object.fromEntries(
          err.errors.map((e) => [e.field, (e.field === "pixKey" ? keyText : null) ?? FIELD_TEXT[e.field] ?? e.message]),
        );
        return { status: "error", message: "Revise os campos destacados.", fieldErrors };
      }
      throw err;
    }
    revalidatePath("/dashboard", "layout");
    return { status: "ok", message: "Dados salvos." };
  });
}
