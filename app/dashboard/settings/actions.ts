"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { updateCompanySettings } from "@/lib/services/update-company-settings";
import { punctuatedType } from "@/components/dashboard/pix-key-input";

const FIELD_TEXT: Record<string, string> = {
  name: "Informe o nome da empresa (2 a 120 caracteres).",
  email: "Informe um e-mail válido.",
  city: "Informe a cidade (2 a 60 caracteres, com letras).",
  pixKey: "Chave PIX inválida: use CPF, CNPJ, e-mail, telefone com DDD ou chave aleatória, conforme o tipo.",
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
        pixKeyType: text("pixKeyType") || punctuatedType(text("pixKey")),
      });
    } catch (err) {
      if (err instanceof ServiceError && err.code === "validation_error" && err.errors?.length) {
        const fieldErrors = Object.fromEntries(err.errors.map((e) => [e.field, FIELD_TEXT[e.field] ?? e.message]));
        return { status: "error", message: "Revise os campos destacados.", fieldErrors };
      }
      throw err;
    }
    revalidatePath("/dashboard", "layout");
    return { status: "ok", message: "Dados salvos." };
  });
}
