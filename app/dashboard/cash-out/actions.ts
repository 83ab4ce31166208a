"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { onceForFormKey } from "@/lib/auth/idempotent-action";
import { FORM_KEY_FIELD } from "@/lib/auth/form-key";
import { formatBRL } from "@/lib/domain/money";
import { CASH_OUT_SOURCES, type CashOutSource } from "@/lib/domain/cash-out";
import { computeCashOutFee } from "@/lib/domain/fees";
import { requestCashOut } from "@/lib/services/cash-outs/request-cash-out";
import { ServiceError } from "@/lib/services/errors";
import { confirmsRecipient } from "@/lib/services/cash-outs/recipient-confirmation";
import { parseReais } from "@/components/dashboard/money-input";
import { checkPixKeyInput, PIX_KEY_PROBLEM_TEXT, pixKeyErrorText } from "@/components/dashboard/pix-key-input";

const RECIPIENT_NOT_CONFIRMED =
  "A confirmação do recebedor não vale para este saque (a chave ou o valor mudaram depois da consulta, ou a consulta tem mais de 15 minutos). Clique em Revisar saque para consultar a chave de novo.";

/**
 * Requests a PIX cash-out (the form showed the fee and the balance after) from the source the form
 * showed: `arara` (the available balance) or `psp` (the balance at the merchant's own PSP, sent by
 * Efí's Pix Envio); a form without one (rendered before sources existed) takes the API's default.
 * Only to the key whose holder the confirmation step showed: the form carries the lookup's signed
 * confirmation of that key (lib/services/cash-outs/recipient-confirmation.ts).
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
    const sent = String(formData.get("source") ?? "");
    const source = (CASH_OUT_SOURCES as readonly string[]).includes(sent) ? (sent as CashOutSource) : undefined;
    // The holder shown must be this key's: the confirmation the lookup signed names the key, its type
    // and the source, so a key changed after the lookup (or a post that skipped it) is not sent.
    const formKey = String(formData.get(FORM_KEY_FIELD) ?? "");
    if (!confirmsRecipient(ctx, String(formData.get("recipientConfirmation") ?? ""), { type: key.type, key: key.key, source, amount, formKey })) {
      return fieldError("Consulte a chave de novo antes de confirmar.", "pixKey", RECIPIENT_NOT_CONFIRMED);
    }
    const input = { amount, pixKey: key.key, pixKeyType: key.type, description, source };
    const state = await onceForFormKey<{ id: number }>(ctx, formData, { scope: "cash-out", request: input }, async (tx) => {
      try {
        const c = await requestCashOut(ctx, input, tx);
        return { status: "ok", message: `Saque #${c.id} de ${formatBRL(c.amount)} solicitado.`, data: { id: c.id } };
      } catch (err) {
        const said = refusalInPortuguese(err, source, amount, computeCashOutFee(ctx.account.feePlan));
        if (said) return said;
        throw err;
      }
    });
    // Whatever the outcome, the page renders again: with the new balance, and a new key for the next cash-out.
    revalidatePath("/dashboard", "layout");
    return state;
  });
}

/**
 * The two refusals a merchant can act on, said in the form on the field to change: a PSP source
 * without Efí's Pix Envio set up (the service's `payout_not_configured`), and a source whose balance
 * does not cover the amount and the fee (the page renders again with that balance as it is now).
 */
function refusalInPortuguese(err: unknown, source: CashOutSource | undefined, amount: number, fee: number): ActionState<never> | null {
  if (!(err instanceof ServiceError)) return null;
  if (err.code === "unprocessable" && err.message.includes("payout_not_configured")) {
    return fieldError(
      "Os saques do saldo no seu PSP não estão configurados.",
      "source",
      "Os saques do saldo no seu PSP ainda não estão configurados: esse dinheiro está na sua conta do PSP, não com a Arara. Configure o envio pela Efí (Pix Envio) em Recebimento PIX, ou escolha o saldo na Arara.",
    );
  }
  if (err.code === "insufficient_balance") {
    // The money the service took it from: the source sent, or the one its default chose (its message names it).
    const atPsp = source ? source === "psp" : err.message.includes("availableAtPsp");
    return fieldError(
      "Saldo insuficiente para este saque.",
      "amount",
      `Saldo insuficiente: ${atPsp ? "o saldo no seu PSP" : "o saldo na Arara"} não cobre ${formatBRL(amount)}${fee > 0 ? ` mais a tarifa de ${formatBRL(fee)}` : ""}.`,
    );
  }
  return null;
}
