import { randomUUID } from "node:crypto";
import { cache } from "react";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import type { ServiceContext } from "@/lib/services/context";
import type { DashboardUser } from "@/lib/services/accounts/dashboard-users";
import { currentSessionUser } from "./current-user";
import { getAuthOptions } from "./options";

export type DashboardContext = ServiceContext & { user: DashboardUser };

/**
 * The signed-in user's service context, or null. The JWT only says who signed in; the user and the
 * account are read from the database each request, so a deleted login or a moved user loses access
 * at once and the account shown is always the current one. The session's version must be the
 * user's current one (sign-out and a secret key rotation move it on).
 */
export const getDashboardContext = cache(async (): Promise<DashboardContext | null> => {
  const session = await getServerSession(getAuthOptions());
  if (!session) return null;
  // Signed out (or the key rotated, or the login removed) since this session was issued: a copied
  // cookie stops here. Read once per render: next-auth's own check of the token asked the same.
  const found = await currentSessionUser(session.user.id, session.user.companyId, session.user.sessionVersion);
  if (!found) return null;
  return {
    account: found.account,
    user: found.user,
    actor: `dashboard:${found.user.id}`,
    requestId: randomUUID(),
    now: new Date(),
  };
});

/**
 * For dashboard pages and server actions: the context, or a redirect to the sign-in page. Every
 * page and every action calls it itself: a layout is not re-run on client navigation and an action
 * is an endpoint of its own.
 */
export async function requireSession(): Promise<DashboardContext> {
  const ctx = await getDashboardContext();
  if (!ctx) redirect("/login");
  return ctx;
}
