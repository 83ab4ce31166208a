"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { PAYMENT_METHODS } from "@/lib/domain/status";
import { createCheckout } from "@/lib/services/checkouts/create-checkout";
import { checkoutUrlOf } from "@/lib/services/checkouts/checkout-view";
import { parseReais } from "@/components/dashboard/money-input";

/** Creates a payment link for one amount (the payer chooses among the methods ticked). */
export async function createPaymentLinkAction(_prev: ActionState<{ url: string }>, formData: FormData): Promise<ActionState<{ url: string }>> {
  return dashboardAction<{ url: string }>(async (ctx) => {
    const description = String(formData.get("description") ?? "").trim();
    if (!description) return fieldError("Revise os campos.", "description", "Descreva o que está sendo cobrado.");
    if (description.length > 500) return fieldError("Revise os campos.", "description", "Use no máximo 500 caracteres.");
    const amount = parseReais(String(formData.get("amount") ?? ""));
    if (amount === null || amount < 1) return fieldError("Revise os campos.", "amount", "Informe um valor em reais, como 49,90.");
    const methods = formData.getAll("methods").map(String).filter((m) => (PAYMENT_METHODS as readonly string[]).includes(m));
    if (methods.length === 0) return fieldError("Revise os campos.", "methods", "Escolha pelo menos um meio de pagamento.");
    if (amount < 100 && methods.some((m) => m !== "pix")) {
      return fieldError("Revise os campos.", "amount", "Boleto e cartão exigem pelo menos R$ 1,00; para menos, ofereça só PIX.");
    }
    const daysText = String(formData.get("expiresInDays") ?? "").trim();
    const expiresInDays = daysText ? Number(daysText) : undefined;
    if (expiresInDays !== undefined && (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > 365)) {
      return fieldError("Revise os campos.", "expiresInDays", "Use de 1 a 365 dias, ou deixe em branco.");
    }
    const link = await createCheckout(ctx, { amount, description, methods, expiresInDays });
    revalidatePath("/dashboard/payment-links");
    return { status: "ok", message: "Link criado.", data: { url: checkoutUrlOf(link.row.secureId) } };
  });
}
