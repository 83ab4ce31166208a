import { unstable_rethrow } from "next/navigation";
import { getLogger, scrub } from "@/lib/logger";
import { ServiceError, type ErrorCode } from "@/lib/services/errors";
import { requireSession, type DashboardContext } from "./session";

/** What a dashboard server action returns to its form (useActionState). */
export type ActionState<T = undefined> =
  | { status: "idle" }
  | { status: "ok"; message?: string; data?: T }
  | { status: "error"; message: string; fieldErrors?: Record<string, string> };

export const IDLE: ActionState<never> = { status: "idle" };

const MESSAGE_BY_CODE: Partial<Record<ErrorCode, string>> = {
  not_found: "Registro não encontrado nesta conta.",
  conflict: "O registro mudou enquanto a operação rodava. Recarregue a página e tente de novo.",
  insufficient_balance: "Saldo disponível insuficiente para esta operação.",
  rate_limited: "Muitas operações seguidas. Aguarde alguns segundos e tente de novo.",
  forbidden: "Esta operação não é permitida nesta conta.",
};

/** A service failure as a sentence for the merchant (Portuguese for the common cases). */
export function errorState(err: unknown): ActionState<never> {
  if (err instanceof ServiceError) {
    const known = err.messagePt ?? MESSAGE_BY_CODE[err.code];
    if (known) return { status: "error", message: known };
    if (err.code !== "internal_error") {
      const fieldErrors = err.errors?.length ? Object.fromEntries(err.errors.map((e) => [e.field, e.message])) : undefined;
      return { status: "error", message: `Não foi possível concluir: ${err.message}`, fieldErrors };
    }
  }
  getLogger().error({ err: scrub(err instanceof Error ? (err.stack ?? err.message) : String(err)) }, "dashboard action failed");
  return { status: "error", message: "Algo deu errado do nosso lado. Tente novamente em instantes." };
}

/**
 * The frame of every dashboard server action: the session check first (an action is a public POST
 * endpoint of its own, whatever page rendered the form), then the body, with service errors
 * turned into a state the form shows.
 */
export async function dashboardAction<T>(fn: (ctx: DashboardContext) => Promise<ActionState<T>>): Promise<ActionState<T>> {
  const ctx = await requireSession();
  try {
    return await fn(ctx);
  } catch (err) {
    unstable_rethrow(err); // redirect() and notFound() are control flow, not failures
    return errorState(err);
  }
}

export function fieldError(message: string, field: string, text: string): ActionState<never> {
  return { status: "error", message, fieldErrors: { [field]: text } };
}
