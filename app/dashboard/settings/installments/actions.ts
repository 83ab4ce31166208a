"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { updateInstallmentPlan } from "@/lib/services/accounts/installment-plan";

const LABEL: Record<string, string> = {
  maxInstallments: "Número máximo de parcelas",
  interestFree: "Parcelas sem juros",
  monthlyRate: "Juros ao mês",
};

export async function updateInstallmentsAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const text = (n: string) => String(formData.get(n) ?? "");
    try {
      await updateInstallmentPlan(ctx, { maxInstallments: text("maxInstallments"), interestFree: text("interestFree"), monthlyRate: text("monthlyRate") });
    } catch (err) {
      if (err instanceof ServiceError && err.code === "validation_error" && err.errors?.length) {
        const fieldErrors = Object.fromEntries(err.errors.map((e) => [e.field, `${LABEL[e.field] ?? "Campo"} ${e.message}.`]));
        return { status: "error", message: "Revise os campos destacados.", fieldErrors };
      }
      throw err;
    }
    revalidatePath("/dashboard/settings/installments");
    return { status: "ok", message: "Parcelamento salvo. Vale para as próximas cobranças no cartão." };
  });
}
