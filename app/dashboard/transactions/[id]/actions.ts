"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { onceForFormKey } from "@/lib/auth/idempotent-action";
import { isTransactionStatus } from "@/lib/domain/status";
import { formatBRL } from "@/lib/domain/money";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { askPspForRefund } from "@/lib/services/psp/api-pix-refunds";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { redeliverFromForm, skipFromForm } from "../../webhook-event-form";
import { parseReais } from "@/components/dashboard/money-input";
import { STATUS_LABEL } from "@/components/dashboard/format";
import { parseId } from "@/lib/core/ids";

const idOf = (v: FormDataEntryValue | null) => (typeof v === "string" && parseId(v) !== null ? v : null);

/**
 * Full refund (no amount) or partial (amount in reais, as typed). Once per form key: a double
 * submit is one refund (lib/auth/idempotent-action.ts).
 */
export async function refundAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const id = idOf(formData.get("transactionId"));
    if (!id) return { status: "error", message: "Transação inválida." };
    let amount: number | undefined;
    if (formData.get("mode") === "partial") {
      const cents = parseReais(String(formData.get("amount") ?? ""));
      if (cents === null || cents < 1) return fieldError("Revise o valor.", "amount", "Informe um valor em reais, como 12,50.");
      amount = cents;
    }
    const state = await onceForFormKey<undefined>(ctx, formData, { scope: `refund ${Number(id)}`, request: { amount: amount ?? null } }, async (tx, afterCommit) => {
      const { transaction: t, pspRefund } = await refundThroughProcessor(ctx, id, { amount }, tx);
      if (pspRefund) {
        // A devolução at the merchant's PSP: asked once the refund and its hold have committed.
        afterCommit(async () => pspRefundState(pspRefund.amount, await askPspForRefund(ctx, pspRefund)));
        return pspRefundState(pspRefund.amount, { transaction: t, refund: pspRefund });
      }
      return {
        status: "ok",
        message:
          t.status === "refunded"
            ? `Transação reembolsada: ${formatBRL(t.refundedAmount)} no total.`
            : `Reembolso parcial feito. Total reembolsado: ${formatBRL(t.refundedAmount)}.`,
      };
    });
    // Whatever the outcome, the page renders again: with the new figures, and a new key for the next refund.
    revalidatePath(`/dashboard/transactions/${id}`);
    revalidatePath("/dashboard", "layout");
    return state;
  });
}

/** What the merchant is told of a devolução asked of its PSP (a refusal arrives as a business error). */
function pspRefundState(amount: number, { transaction, refund }: { transaction: { status: string; refundedAmount: number }; refund: { status: string } }): ActionState {
  if (refund.status === "done") {
    return {
      status: "ok",
      message:
        transaction.status === "refunded"
          ? `Devolução feita pelo PSP: transação reembolsada, ${formatBRL(transaction.refundedAmount)} no total.`
          : `Devolução de ${formatBRL(amount)} feita pelo PSP. Total reembolsado: ${formatBRL(transaction.refundedAmount)}.`,
    };
  }
  return {
    status: "ok",
    message: `Devolução de ${formatBRL(amount)} solicitada ao PSP. O valor fica reservado no saldo até o PSP confirmar; a transação passa a reembolsada quando ele devolver.`,
  };
}

/** Sandbox: move a test transaction as the PSP or acquirer would (pay, chargeback, protest...). */
export async function sandboxMoveAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const id = idOf(formData.get("transactionId"));
    const to = String(formData.get("to") ?? "");
    if (!id || !isTransactionStatus(to)) return { status: "error", message: "Movimento inválido." };
    const t = await sandboxMove(ctx, id, to);
    revalidatePath(`/dashboard/transactions/${id}`);
    return { status: "ok", message: `Status alterado para ${STATUS_LABEL[t.status] ?? t.status}.` };
  });
}

const TRANSACTION = { subjectField: "transactionId", pageOf: (id: string) => `/dashboard/transactions/${id}` } as const;

/** Sends a webhook event again now (logged as a manual attempt). */
export async function redeliverAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction((ctx) => redeliverFromForm(ctx, formData, TRANSACTION));
}

/** Gives a pending or failed webhook event up, releasing the events queued behind it. */
export async function skipAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction((ctx) => skipFromForm(ctx, formData, TRANSACTION));
}
