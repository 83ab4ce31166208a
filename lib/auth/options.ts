import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { derivedKey } from "@/lib/crypto";
import { ensureDatabase } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";
import { sessionUserOf } from "./current-user";
import { endUserSessions, verifyDashboardLogin } from "@/lib/services/accounts/dashboard-users";
import { clientIp, recordLoginSuccess, takeLoginAttempt } from "./throttle";

/** A signed-in dashboard session lasts a working day; the JWT is re-issued while it is in use. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * Sign-in errors travel to the browser as the `error` query parameter of next-auth's response
 * (the thrown message); the sign-in form turns these codes into sentences.
 */
export const THROTTLED_PREFIX = "throttled:";

type Headers = Record<string, string | string[] | undefined> | undefined;

/** next-auth's `authorize`: throttles, then checks the e-mail and password. Exported for tests. */
export async function authorizeDashboardLogin(
  credentials: Record<string, string> | undefined,
  headers: Headers,
): Promise<User | null> {
  const email = String(credentials?.email ?? "").trim().toLowerCase();
  const password = String(credentials?.password ?? "");
  if (!email || !password) return null;
  const ip = clientIp(headers);
  await ensureDatabase();
  // Counted before the password is checked, so a burst of guesses in flight at once is held to the limit.
  const wait = await takeLoginAttempt(email, ip);
  if (wait !== null) {
    getLogger().warn({ ip, wait }, "dashboard sign-in throttled");
    throw new Error(`${THROTTLED_PREFIX}${wait}`);
  }
  const user = await verifyDashboardLogin(email, password);
  if (!user) {
    getLogger().info({ ip }, "dashboard sign-in failed");
    return null;
  }
  await recordLoginSuccess(email, ip);
  return { id: String(user.id), email: user.email, name: user.name, companyId: user.companyId, sessionVersion: user.sessionVersion };
}

let cached: NextAuthOptions | undefined;

/**
 * Built on first use, not at import: the secret comes from the key-encryption secret, which the
 * build must not read. NEXTAUTH_SECRET is never hard-coded; NEXTAUTH_URL is BASE_URL.
 */
export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  // next-auth reads NEXTAUTH_URL from process.env on every request to build its absolute URLs and
  // to choose secure cookies (https): it is set here from the one parsed configuration.
  process.env.NEXTAUTH_URL = getEnv().baseUrl;
  cached = {
    secret: derivedKey("nextauth").toString("base64url"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "E-mail e senha",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Senha", type: "password" },
        },
        authorize: (credentials, req) => authorizeDashboardLogin(credentials, req.headers as Headers),
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.companyId = user.companyId;
          token.sessionVersion = user.sessionVersion;
          return token;
        }
        // Every later read of the session (the pages' check, /api/auth/session) re-issues the token:
        // a removed login, a moved one or an ended session is refused here, and next-auth answers
        // with no session and clears the cookie instead of sliding it for another working day.
        if (!(await sessionUserOf(token))) throw new Error("session ended");
        return token;
      },
      session({ session, token }) {
        session.user = { ...session.user, id: token.sub ?? "", companyId: token.companyId, sessionVersion: token.sessionVersion };
        return session;
      },
    },
    events: {
      // Sign-out ends the session everywhere: the cookie a browser drops may have been copied.
      async signOut({ token }) {
        const userId = Number(token?.sub);
        if (!Number.isSafeInteger(userId) || userId <= 0) return;
        await ensureDatabase();
        await endUserSessions(userId);
      },
    },
    logger: {
      error: (code, meta) => getLogger().warn({ code, meta: meta instanceof Error ? meta.message : undefined }, "next-auth"),
      warn: (code) => getLogger().warn({ code }, "next-auth"),
      debug: () => {},
    },
  };
  return cached;
}
