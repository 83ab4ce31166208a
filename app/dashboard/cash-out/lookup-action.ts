"use server";

import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { CASH_OUT_SOURCES, type CashOutSource } from "@/lib/domain/cash-out";
import { lookupCashOutRecipient, type CashOutRecipient } from "@/lib/services/cash-outs/lookup-pix-key";

/**
 * The destination key's holder (name and institution) from the DICT lookup of the processor that
 * would send the cash-out (`source`), for the cash-out's confirmation step, with the signed
 * confirmation the send must carry (lib/services/cash-outs/recipient-confirmation.ts), for this
 * amount (centavos) and this render of the form (its idempotency key).
 */
export async function lookupRecipientAction(
  pixKey: string,
  pixKeyType: string,
  source: string | undefined,
  amount: number,
  formKey: string,
): Promise<ActionState<Pick<CashOutRecipient, "checked" | "holder" | "confirmation">>> {
  return dashboardAction(async (ctx) => {
    // An action is a public endpoint: its arguments are checked as a form's fields are.
    if (!Number.isSafeInteger(amount) || amount < 1 || typeof formKey !== "string" || formKey.length < 1 || formKey.length > 200) {
      return { status: "error", message: "Revise o saque e tente de novo." };
    }
    const chosen = CASH_OUT_SOURCES.includes(source as CashOutSource) ? (source as CashOutSource) : undefined;
    const { checked, holder, confirmation } = await lookupCashOutRecipient(ctx, { pixKey: String(pixKey), pixKeyType: String(pixKeyType), source: chosen, amount, formKey });
    return { status: "ok", data: { checked, holder, confirmation } };
  });
}
