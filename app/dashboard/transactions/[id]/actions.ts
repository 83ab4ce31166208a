"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { onceForFormKey } from "@/lib/auth/idempotent-action";
import { isTransactionStatus } from "@/lib/domain/status";
import { formatBRL } from "@/lib/domain/money";
import { refundThroughProcessor } from "@/lib/services/transactions/refund-through-processor";
import { askPspForRefund } from "@/lib/services/psp/api-pix-refunds";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { updateDelivery } from "@/lib/services/transactions/update-delivery";
import { DELIVERY_STATUS_LABEL } from "@/lib/domain/delivery";
import { redeliverFromForm, skipFromForm } from "../../webhook-event-form";
import { parseReais } from "@/components/dashboard/money-input";
import { STATUS_LABEL } from "@/components/dashboard/format";
import { parseId } from "@/lib/core/ids";
import type { DashboardContext } from "@/lib/auth/session";
import type { Tx } from "@/lib/db/client";
import { ServiceError } from "@/lib/services/errors";
import { getTransaction } from "@/lib/services/transactions/get-transaction";
import { refundFiguresOf } from "@/lib/services/transactions/transaction-detail";

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
      const { transaction: t, pspRefund } = await refundThroughProcessor(ctx, id, { amount }, tx).catch(async (err: unknown) => {
        throw await refundRefusal(ctx, tx, id, amount, err);
      });
      if (pspRefund) {
        // A devolução at the merchant's PSP: asked once the refund and its hold have committed.
        afterCommit(async () => {
          const asked = await askPspForRefund(ctx, pspRefund).catch((err: unknown) => {
            throw pspRefusal(err);
          });
          return pspRefundState(pspRefund.amount, asked);
        });
        return pspRefundState(pspRefund.amount, { transaction: t, refund: pspRefund });
      }
      return {
        status: "ok",
        message:
          t.status === "refunded"
            ? `Reembolso feito: a transação foi reembolsada por inteiro.`
            : `Reembolso parcial feito. Total reembolsado: ${formatBRL(t.refundedAmount)}.`,
      };
    });
    // Whatever the outcome, the page renders again: with the new figures, and a new key for the next refund.
    revalidatePath(`/dashboard/transactions/${id}`);
    revalidatePath("/dashboard", "layout");
    return state;
  });
}

/**
 * A refund the services refused, told in Portuguese and in reais. The services answer the API in
 * English, with the figures in centavos (`must be at most 3990`); the form says what the merchant can
 * do, with the figures read again from the transaction as the refusal left it (a refund made in
 * another tab meanwhile is why a browser-side check passed). Errors the dashboard already words
 * (not_found, conflict, rate_limited, forbidden, a Portuguese messagePt) go on as they are.
 */
async function refundRefusal(ctx: DashboardContext, tx: Tx, id: string, amount: number | undefined, err: unknown): Promise<unknown> {
  if (!(err instanceof ServiceError) || err.messagePt) return err;
  const said = (messagePt: string) => new ServiceError(err.code, err.message, undefined, { messagePt });
  switch (err.code) {
    case "not_found":
    case "conflict":
    case "rate_limited":
    case "forbidden":
    case "internal_error":
      return err;
    case "validation_error":
      return said("Revise o valor: informe um valor em reais, como 12,50.");
    case "insufficient_balance":
      // The devolução's hold at the merchant's PSP (the other path words its own, in messagePt).
      return said(
        `O saldo no seu PSP (os PIX recebidos lá, menos tarifas, reembolsos e saques) não cobre este reembolso${amount ? ` de ${formatBRL(amount)}` : ""}; devoluções em andamento já estão reservadas nele.`,
      );
    case "unprocessable": {
      // The savepoint of the refused refund rolled back: the transaction reads as it is now.
      const t = await getTransaction(ctx, id, tx).catch(() => null);
      if (!t) return said("O reembolso não foi feito. Recarregue a página e confira a transação.");
      if (t.status !== "paid") {
        const refunded = t.refundedAmount > 0 ? ` Total reembolsado: ${formatBRL(t.refundedAmount)}.` : "";
        return said(`Só uma transação paga pode ser reembolsada: a transação #${t.id} está com status ${STATUS_LABEL[t.status] ?? t.status}.${refunded}`);
      }
      const { refundsAtPsp: viaPsp, refundingAtPsp: pending, refundable } = await refundFiguresOf(t, tx);
      if (viaPsp && !t.pixEnd2end) return said("Este PIX não tem o identificador (E2E) que o PSP pede para a devolução; ela não pode ser pedida pelo painel.");
      const atPsp = pending > 0 ? ` (${formatBRL(pending)} em devolução no seu PSP)` : "";
      if (err.errors?.some((e) => e.field === "amount")) {
        if (refundable === 0) return said(`Não há mais valor a reembolsar nesta transação: o valor pago já foi reembolsado${atPsp}.`);
        if (amount === undefined || amount > refundable) return said(`O máximo reembolsável é ${formatBRL(refundable)}${atPsp}.`);
      }
      if (viaPsp) return said("Esta conta não tem o PSP configurado para devolver este PIX. Confira em Configurações → PIX.");
      return said("O reembolso não foi feito. Recarregue a página e confira os valores da transação.");
    }
    default:
      return said("O reembolso não foi feito. Recarregue a página e tente de novo.");
  }
}

/** The PSP did not make the devolução (refused it, or NAO_REALIZADO): its hold was released. */
function pspRefusal(err: unknown): unknown {
  if (!(err instanceof ServiceError) || err.messagePt || err.code !== "unprocessable") return err;
  // Its reason is Arara's Portuguese sentence, which may quote the PSP's own words.
  const reason = /^(O PSP|Devolução)/.test(err.message) ? ` ${err.message}` : "";
  return new ServiceError(err.code, err.message, undefined, {
    messagePt: `O PSP não fez a devolução: nada foi reembolsado e o valor reservado voltou ao saldo.${reason}`,
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

/** The delivery status and tracking code of a paid sale's goods (the API's PUT /transactions/{id}/delivery). */
export async function deliveryAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const id = idOf(formData.get("transactionId"));
    if (!id) return { status: "error", message: "Transação inválida." };
    const trackingCode = String(formData.get("trackingCode") ?? "").trim();
    if (trackingCode.length > 100) return fieldError("Revise o código de rastreio.", "trackingCode", "Use no máximo 100 caracteres.");
    const t = await updateDelivery(ctx, id, { status: String(formData.get("status") ?? ""), trackingCode });
    revalidatePath(`/dashboard/transactions/${id}`);
    const said = DELIVERY_STATUS_LABEL[t.deliveryStatus ?? "waiting"] ?? t.deliveryStatus;
    return { status: "ok", message: t.trackingCode ? `Entrega: ${said}, rastreio ${t.trackingCode}.` : `Entrega: ${said}.` };
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
