"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { getEnv } from "@/lib/env";
import { getLogger, scrub } from "@/lib/logger";
import { sendMail } from "@/lib/mail/transport";
import { cancelInvitation, inviteTeamMember, removeTeamMember, teamInviteMail } from "@/lib/services/accounts/team";

export type InviteData = { link: string; email: string; name: string; expiresAt: string; mailed: boolean; mailFailed: boolean };

const text = (formData: FormData, n: string) => {
  const v = formData.get(n);
  return typeof v === "string" ? v : "";
};

/**
 * Invites a colleague: the link goes back to the inviter this once (only the token's hash is kept),
 * and is mailed to the colleague when SMTP is configured, after the invitation has committed. The
 * token is never logged.
 */
export async function inviteAction(_prev: ActionState<InviteData>, formData: FormData): Promise<ActionState<InviteData>> {
  return dashboardAction<InviteData>(async (ctx) => {
    const r = await inviteTeamMember(ctx, { name: text(formData, "name"), email: text(formData, "email") });
    if (!r.ok) return { status: "error", message: r.message, fieldErrors: r.fieldErrors };
    getLogger().info({ companyId: ctx.account.id, actor: ctx.actor, invitationId: r.invitation.id }, "team invitation created");
    let mailed = false;
    let mailFailed = false;
    if (getEnv().smtpUrl) {
      try {
        mailed = await sendMail(
          teamInviteMail({
            to: r.invitation.email,
            name: r.invitation.name,
            inviterName: ctx.user.name,
            companyName: ctx.account.name,
            link: r.link,
            expiresAt: r.invitation.expiresAt,
          }),
        );
      } catch (err) {
        mailFailed = true;
        getLogger().warn({ companyId: ctx.account.id, invitationId: r.invitation.id, err: scrub(err instanceof Error ? err.message : String(err)) }, "team invitation e-mail not sent");
      }
    }
    revalidatePath("/dashboard/settings/team");
    return {
      status: "ok",
      message: `Convite criado para ${r.invitation.email}.`,
      data: { link: r.link, email: r.invitation.email, name: r.invitation.name, expiresAt: r.invitation.expiresAt.toISOString(), mailed, mailFailed },
    };
  });
}

/** Removes another login of the account: it cannot sign in any more and its sessions end now. */
export async function removeMemberAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const r = await removeTeamMember(ctx, Number(text(formData, "userId")));
    if (!r.ok) return { status: "error", message: r.message };
    getLogger().info({ companyId: ctx.account.id, actor: ctx.actor, removedUserId: r.removed.id }, "team member removed");
    revalidatePath("/dashboard/settings/team");
    return { status: "ok", message: `Acesso de ${r.removed.email} removido.` };
  });
}

/** Cancels a pending invitation of the account: its link stops working. */
export async function cancelInvitationAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const r = await cancelInvitation(ctx, Number(text(formData, "invitationId")));
    if (!r.ok) return { status: "error", message: r.message };
    revalidatePath("/dashboard/settings/team");
    return { status: "ok", message: "Convite cancelado." };
  });
}
