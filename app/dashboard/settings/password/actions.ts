"use server";

import { headers } from "next/headers";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { clientIp } from "@/lib/auth/throttle";
import { passwordChangeThrottle } from "@/lib/auth/password-change-throttle";
import { reissueOwnSession } from "@/lib/auth/reissue-session";
import { changeDashboardPassword } from "@/lib/services/accounts/change-password";

/**
 * Changes the signed-in user's password (the rules and the throttle are the service's). A server
 * action, like the other settings forms: Next checks its Origin against the host, so another site
 * cannot post it with the merchant's cookie. The passwords are never logged nor sent back.
 */
export async function changePasswordAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const text = (n: string) => {
      const v = formData.get(n);
      return typeof v === "string" ? v : "";
    };
    const r = await changeDashboardPassword(
      ctx,
      { currentPassword: text("currentPassword"), newPassword: text("newPassword"), confirmation: text("confirmation") },
      passwordChangeThrottle(ctx.user, clientIp(await headers())),
    );
    if (r.ok) {
      // Every other session ended with the change; this one goes on.
      await reissueOwnSession(ctx.user.id);
      return { status: "ok", message: "Senha alterada. As sessões abertas em outros aparelhos foram encerradas." };
    }
    return { status: "error", message: r.message, fieldErrors: r.fieldErrors as Record<string, string> | undefined };
  });
}
