import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { runIdempotent } from "@/lib/http/idempotency";
import { ServiceError } from "@/lib/services/errors";
import { getLogger, scrub } from "@/lib/logger";
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
 *
 * `run` may hand over, with `afterCommit`, work that must run only once its writes have committed and
 * outside any transaction (a call to a PSP): the state it returns (or the error state of a business
 * error it throws) is the outcome, remembered for the key; if it fails otherwise, the committed
 * outcome stands.
 */
export async function onceForFormKey<T>(
  ctx: DashboardContext,
  form: FormData,
  operation: { scope: string; request: unknown },
  run: (tx: Tx, afterCommit: (task: () => Promise<ActionState<T>>) => void) => Promise<ActionState<T>>,
): Promise<ActionState<T>> {
  const key = form.get(FORM_KEY_FIELD);
  if (typeof key !== "string" || !KEY_RE.test(key)) {
    return { status: "error", message: "O formulário expirou. Recarregue a página e tente de novo." };
  }
  const answerOf = (state: ActionState<T>) => ({ status: state.status === "error" ? 422 : 200, contentType: "application/json", body: JSON.stringify(state) });
  const stateOf = async (work: () => Promise<ActionState<T>>): Promise<ActionState<T>> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code === "internal_error") throw err;
      return errorState(err);
    }
  };
  let followUp: (() => Promise<ActionState<T>>) | undefined;
  try {
    const { answer } = await runIdempotent(
      { companyId: ctx.account.id, scope: `dashboard ${operation.scope}`, key, request: operation.request, now: ctx.now, whenBusy: "wait" },
      async (tx) => {
        const state = await stateOf(() => run(tx, (task) => (followUp = task)));
        if (state.status === "error") followUp = undefined;
        return answerOf(state);
      },
      async () => {
        const task = followUp;
        if (!task) return null;
        try {
          return answerOf(await stateOf(task));
        } catch (err) {
          getLogger().error({ component: "dashboard", scope: operation.scope, err: scrub(err instanceof Error ? err.message : String(err)) }, "a form's follow-up after its commit failed: the committed outcome stands");
          return null;
        }
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
