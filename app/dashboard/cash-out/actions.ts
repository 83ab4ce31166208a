"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { onceForFormKey } from "@/lib/auth/idempotent-action";
import { formatBRL } from "@/lib/domain/money";
import { requestCashOut } from "@/lib/services/cash-outs/request-cash-out";
import { parseReais } from "@/components/dashboard/money-input";
import { checkPixKeyInput, PIX_KEY_PROBLEM_TEXT, pixKeyErrorText } from "@/components/dashboard/pix-key-input";

/**
 * Requests a PIX cash-out of the available balance (the form showed the fee and the balance after).
 * Once per form key: a double submit is one cash-out (lib/auth/idempotent-action.ts).
 */
export async function cashOutAction(_prev: ActionState<{ id: number }>, formData: FormData): Promise<ActionState<{ id: number }>> {
  return dashboardAction<{ id: number }>(async (ctx) => {
    const amount = parseReais(String(formData.get("amount") ?? ""));
    if (amount === null || amount < 1) return fieldError("Revise o valor.", "amount", "Informe um valor em reais, como 150,00.");
    const pixKey = String(formData.get("pixKey") ?? "").trim();
    const key = checkPixKeyInput(pixKey, String(formData.get("pixKeyType") ?? "").trim());
    if (!key) return fieldError("Revise a chave PIX.", "pixKey", PIX_KEY_PROBLEM_TEXT.empty);
    if (!key.ok) return fieldError("Revise a chave PIX.", "pixKey", pixKeyErrorText(key) ?? PIX_KEY_PROBLEM_TEXT[key.problem]);
    const description = String(formData.get("description") ?? "").trim().slice(0, 140) || undefined;
    const input = { amount, pixKey: key.key, pixKeyType: key.type, description };
    const state = await onceForFormKey<{ id: number }>(ctx, formData, { scope: "cash-out", request: input }, async (tx) => {
      const c = await requestCashOut(ctx, input, tx);
      return { status: "ok", message: `Saque #${c.id} de ${formatBRL(c.amount)} solicitado.`, data: { id: c.id } };
    });
    // Whatever the outcome, the page renders again: with the new balance, and a new key for the next cash-out.
    revalidatePath("/dashboard", "layout");
    return state;
  });
}
