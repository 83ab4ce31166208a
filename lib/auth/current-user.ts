import { cache } from "react";
import { ensureDatabase } from "@/lib/db/client";
import { findDashboardUser } from "@/lib/services/accounts/dashboard-users";

/** What a dashboard session's token says about its user (next-auth's JWT claims). */
export type SessionClaims = { sub?: string | null; companyId?: number; sessionVersion?: number };

/**
 * The user and account a session's claims still stand for, or null: the login exists (a removed
 * member's row is deleted), still belongs to the account the session was issued for, and carries the
 * session version of its sign-in (sign-out and a secret key rotation move it on). Read from the
 * database on every check; memoized per server render, so a page's session check and its context
 * read the row once.
 */
export const currentSessionUser = cache(async (sub: string | null | undefined, companyId: number | undefined, sessionVersion: number | undefined) => {
  const userId = Number(sub);
  if (!Number.isSafeInteger(userId) || userId <= 0) return null;
  await ensureDatabase();
  const found = await findDashboardUser(userId);
  if (!found) return null;
  if (companyId !== undefined && found.account.id !== companyId) return null;
  if (sessionVersion !== found.user.sessionVersion) return null;
  return found;
});

export const sessionUserOf = (claims: SessionClaims) => currentSessionUser(claims.sub, claims.companyId, claims.sessionVersion);
