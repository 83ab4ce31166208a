"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, fieldError, type ActionState } from "@/lib/auth/action";
import { ServiceError } from "@/lib/services/errors";
import { revealWebhookSecret, rotateSecretKey, rotateWebhookSecret } from "@/lib/services/accounts/accounts";
import { getLogger } from "@/lib/logger";
import { reissueOwnSession } from "@/lib/auth/reissue-session";
import { updateDefaultWebhookUrl } from "@/lib/services/accounts/default-webhook-url";

/** Revokes the active secret key and issues a new one, returned this once. */
export async function rotateSecretKeyAction(): Promise<ActionState<{ secretKey: string }>> {
  return dashboardAction<{ secretKey: string }>(async (ctx) => {
    const { secretKey, hint } = await rotateSecretKey(ctx.account.id, ctx.now);
    // The rotation ended every dashboard session of the account; this one goes on.
    await reissueOwnSession(ctx.user.id);
    getLogger().info({ companyId: ctx.account.id, actor: ctx.actor, hint }, "secret key rotated");
    revalidatePath("/dashboard/developers");
    return { status: "ok", data: { secretKey } };
  });
}

export async function revealWebhookSecretAction(): Promise<ActionState<{ secret: string }>> {
  return dashboardAction<{ secret: string }>(async (ctx) => ({ status: "ok", data: { secret: revealWebhookSecret(ctx.account) } }));
}

/** A new signing secret: webhooks sent from now on are signed with it. */
export async function rotateWebhookSecretAction(): Promise<ActionState<{ secret: string }>> {
  return dashboardAction<{ secret: string }>(async (ctx) => {
    const secret = await rotateWebhookSecret(ctx.account.id);
    getLogger().info({ companyId: ctx.account.id, actor: ctx.actor }, "webhook secret rotated");
    return { status: "ok", data: { secret } };
  });
}

/** The account's default webhook URL (empty: none): for charges and cash-outs created without a postbackUrl. */
export async function updateWebhookUrlAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const raw = formData.get("webhookUrl");
    // Another scheme (ftp://, file://, javascript:): the address may be complete, it is the scheme that is not accepted.
    const scheme = typeof raw === "string" ? /^\s*([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1] : undefined;
    if (scheme && !/^https?$/i.test(scheme)) {
      return fieldError("URL de webhook inválida.", "webhookUrl", `A URL precisa começar com http:// ou https:// (${scheme.toLowerCase()}:// não é aceito).`);
    }
    let url: string | null;
    try {
      url = await updateDefaultWebhookUrl(ctx, raw);
    } catch (err) {
      // The service words its refusals for this form (in Portuguese): said as they are, without the generic prefix.
      if (err instanceof ServiceError && err.code === "validation_error") {
        return { status: "error", message: err.message, fieldErrors: Object.fromEntries((err.errors ?? []).map((e) => [e.field, e.message])) };
      }
      throw err;
    }
    revalidatePath("/dashboard/developers");
    return { status: "ok", message: url ? "URL de webhook salva. Vale para as transações e saques criados a partir de agora." : "URL de webhook removida." };
  });
}
