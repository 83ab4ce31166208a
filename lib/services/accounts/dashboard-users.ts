import { eq, sql } from "drizzle-orm";
import bcrypt from "bcryptjs";
import { getDb } from "@/lib/db/client";
import { companies, users } from "@/lib/db/schema";
import type { Account } from "../context";

export type DashboardUser = { id: number; companyId: number; email: string; name: string; sessionVersion: number };

// Compared against when the e-mail is unknown, so a miss costs the same bcrypt work as a wrong
// password and response time does not tell which e-mails have an account.
const DUMMY_HASH = bcrypt.hashSync("arara-dummy-password-for-timing", 10);

/** The dashboard user with this e-mail and password, or null. E-mails compare case-insensitively. */
export async function verifyDashboardLogin(email: string, password: string): Promise<DashboardUser | null> {
  const normalized = email.trim().toLowerCase();
  if (!normalized || !password || password.length > 200) return null;
  const rows = await getDb()
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalized}`)
    .limit(1);
  const user = rows[0];
  const ok = await bcrypt.compare(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) return null;
  return { id: user.id, companyId: user.companyId, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
}

/** A signed-in user and their account, re-read on every request so a removed login stops working. */
export async function findDashboardUser(userId: number): Promise<{ user: DashboardUser; account: Account } | null> {
  if (!Number.isSafeInteger(userId) || userId <= 0) return null;
  const rows = await getDb()
    .select({ user: users, account: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId))
    .limit(1);
  const r = rows[0];
  if (!r) return null;
  return {
    user: { id: r.user.id, companyId: r.user.companyId, email: r.user.email, name: r.user.name, sessionVersion: r.user.sessionVersion },
    account: r.account,
  };
}

/** Ends every session of this user issued so far (sign-out: a copied cookie stops working too). */
export async function endUserSessions(userId: number): Promise<void> {
  if (!Number.isSafeInteger(userId) || userId <= 0) return;
  await getDb().update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, userId));
}
