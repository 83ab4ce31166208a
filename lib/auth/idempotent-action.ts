import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { runIdempotent } from "@/lib/http/idempotency";
import { ServiceError } from "@/lib/services/errors";
import { errorState, type ActionState } from "./action";
import { FORM_KEY_FIELD } from "./form-key";
import type { DashboardContext } from "./session";

/**
 * A key for one render of a money form (cash-out, refund), made on the server when the page renders
 * and sent back with the form: a double submit, or the browser re-sending the POST, carries the same
 * key and is one operation. The page renders again after each outcome, with a new key.
 */
export function newFormKey(): string {
  return randomUUID();
}

const KEY_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs a dashboard money action once per form key, through the same mechanism as the API's
 * Idempotency-Key (lib/http/idempotency.ts): the key's record and the operation commit in one
 * database transaction; `run` must pass `tx` to its verb. A second submit with the key waits for the
 * first and gets its outcome (the state the form shows); a business error is remembered like a 4xx
 * of the API, anything else rolls back and is not. A form without a valid key is refused: every
 * money form renders one.
 */
export async function onceForFormKey<T>(
  ctx: DashboardContext,
  form: FormData,
  operation: { scope: string; request: unknown },
  run: (tx: Tx) => Promise<ActionState<T>>,
): Promise<ActionState<T>> {
  const key = form.get(FORM_KEY_FIELD);
  if (typeof key !== "string" || !KEY_RE.test(key)) {
    return { status: "error", message: "O formulário expirou. Recarregue a página e tente de novo." };
  }
  try {
    const { answer } = await runIdempotent(
      { companyId: ctx.account.id, scope: `dashboard ${operation.scope}`, key, request: operation.request, now: ctx.now, whenBusy: "wait" },
      async (tx) => {
        let state: ActionState<T>;
        try {
          state = await run(tx);
        } catch (err) {
          if (!(err instanceof ServiceError) || err.code === "internal_error") throw err;
          state = errorState(err);
        }
        return { status: state.status === "error" ? 422 : 200, contentType: "application/json", body: JSON.stringify(state) };
      },
    );
    return JSON.parse(answer.body) as ActionState<T>;
  } catch (err) {
    if (err instanceof ServiceError && err.code === "idempotency_conflict") {
      return { status: "error", message: "Este formulário já foi enviado com outros valores. Recarregue a página e tente de novo." };
    }
    throw err;
  }
}
