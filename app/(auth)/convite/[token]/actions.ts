"use server";

import { headers } from "next/headers";
import { errorState, type ActionState } from "@/lib/auth/action";
import { clientIp } from "@/lib/auth/throttle";
import { inviteTokenThrottle } from "@/lib/auth/invite-throttle";
import { ensureDatabase } from "@/lib/db/client";
import { acceptInvitation } from "@/lib/services/accounts/team";

export type Accepted = { email: string };

/**
 * Accepts a team invitation: creates the login with the password typed here, in the inviting
 * account, and consumes the invitation (once, whatever the tabs). The password is not logged nor sent
 * back; the browser signs in with what was typed.
 */
export async function acceptInvitationAction(token: string, formData: FormData): Promise<ActionState<Accepted>> {
  const text = (n: string) => {
    const v = formData.get(n);
    return typeof v === "string" ? v : "";
  };
  try {
    await ensureDatabase();
    const r = await acceptInvitation(
      String(token ?? ""),
      { name: text("name"), password: text("password"), confirmation: text("confirmation") },
      inviteTokenThrottle(clientIp(await headers())),
    );
    if (!r.ok) return { status: "error", message: r.message, fieldErrors: r.fieldErrors };
    return { status: "ok", data: { email: r.email } };
  } catch (err) {
    return errorState(err);
  }
}
