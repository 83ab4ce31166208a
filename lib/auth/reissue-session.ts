import { cookies } from "next/headers";
import { decode, encode } from "next-auth/jwt";
import { findDashboardUser } from "@/lib/services/accounts/dashboard-users";
import { getAuthOptions, SESSION_MAX_AGE_SECONDS } from "./options";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * After a change that ends every session of the account (a secret key rotation), the user who made
 * it keeps working: their own session cookie is issued again with the user's new session version.
 * Every other session, copied cookies included, has ended. For server actions only (sets a cookie).
 */
export async function reissueOwnSession(userId: number): Promise<void> {
  const found = await findDashboardUser(userId);
  if (!found) return;
  const secret = getAuthOptions().secret!;
  const jar = await cookies();
  for (const name of SESSION_COOKIES) {
    const current = jar.get(name);
    if (!current) continue;
    const token = await decode({ token: current.value, secret });
    if (!token || Number(token.sub) !== userId) continue;
    const value = await encode({ token: { ...token, sessionVersion: found.user.sessionVersion }, secret, maxAge: SESSION_MAX_AGE_SECONDS });
    jar.set(name, value, { httpOnly: true, sameSite: "lax", path: "/", secure: name.startsWith("__Secure-"), maxAge: SESSION_MAX_AGE_SECONDS });
  }
}
