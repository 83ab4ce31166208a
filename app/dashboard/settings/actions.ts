"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { updateCompanySettings } from "@/lib/services/accounts/update-company-settings";
import { ADDRESS_FIELDS } from "@/lib/domain/address";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";

const FIELD_TEXT: Record<string, string> = {
  name: "Informe o nome da empresa (2 a 120 caracteres).",
  email: "Informe um e-mail válido.",
  city: "Informe a cidade (2 a 60 caracteres, com letras).",
  pixKey: "Informe a chave PIX.",
  pixKeyType: "Tipo de chave inválido.",
  "address.street": "Use no máximo 200 caracteres.",
  "address.streetNumber": "Use no máximo 20 caracteres.",
  "address.complement": "Use no máximo 200 caracteres.",
  "address.neighborhood": "Use no máximo 100 caracteres.",
  "address.city": "Use no máximo 100 caracteres.",
  "address.state": "Use a sigla do estado (UF), como SP.",
  "address.zipCode": "Informe o CEP com 8 dígitos, como 01310-100.",
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
        address: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(`address.${f}`)])),
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
