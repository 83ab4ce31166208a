"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { invitationThrottle } from "@/lib/auth/invite-throttle";
import { getLogger } from "@/lib/logger";
import { cancelInvitation, inviteTeamMember, removeTeamMember } from "@/lib/services/accounts/team";

export type InviteData = { link: string; email: string; name: string; expiresAt: string; mailed: boolean; mailFailed: boolean };

const text = (formData: FormData, n: string) => {
  const v = formData.get(n);
  return typeof v === "string" ? v : "";
};

/**
 * Invites a colleague: the link goes back to the inviter this once (only the token's hash is kept),
 * and the service mails it to the colleague when SMTP is configured, after the invitation has
 * committed. The token is never logged. Invitations are counted in the database per account and per
 * recipient (lib/auth/invite-throttle.ts): one over a limit is refused with the wait in the message.
 */
export async function inviteAction(_prev: ActionState<InviteData>, formData: FormData): Promise<ActionState<InviteData>> {
  return dashboardAction<InviteData>(async (ctx) => {
    const r = await inviteTeamMember(ctx, { name: text(formData, "name"), email: text(formData, "email") }, invitationThrottle);
    if (!r.ok) return { status: "error", message: r.message, fieldErrors: r.fieldErrors };
    getLogger().info({ companyId: ctx.account.id, actor: ctx.actor, invitationId: r.invitation.id, mailed: r.mailed, mailFailed: r.mailFailed }, "team invitation created");
    revalidatePath("/dashboard/settings/team");
    return {
      status: "ok",
      message: `Convite criado para ${r.invitation.email}.`,
      data: { link: r.link, email: r.invitation.email, name: r.invitation.name, expiresAt: r.invitation.expiresAt.toISOString(), mailed: r.mailed, mailFailed: r.mailFailed },
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
